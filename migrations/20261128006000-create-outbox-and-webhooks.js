'use strict';

/**
 * CONTRACT 16: webhook endpoints and the outbox. An outbox row is work to do outside the request (a webhook
 * delivery to one endpoint, a mail), written in the transaction of the change it describes and claimed by one
 * instance at a time (`claimed_until`: a lease, so a dead instance's rows come back). The index serves the
 * worker's claim (pending rows due first); the second one an endpoint's delivery log, newest first.
 */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('webhook_endpoints', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      url: { type: Sequelize.STRING(2048), allowNull: false },
      description: { type: Sequelize.STRING(255), allowNull: true },
      events: { type: Sequelize.TEXT, allowNull: false },
      active: { type: Sequelize.BOOLEAN, allowNull: false, defaultValue: true },
      secret_sealed: { type: Sequelize.TEXT, allowNull: false },
      previous_secret_sealed: { type: Sequelize.TEXT, allowNull: true },
      previous_secret_until: { type: Sequelize.DATE, allowNull: true },
      failing_since: { type: Sequelize.DATE, allowNull: true },
      disabled_reason: { type: Sequelize.STRING(255), allowNull: true },
      created_at: { type: Sequelize.DATE, allowNull: false },
      updated_at: { type: Sequelize.DATE, allowNull: false },
    });
    await queryInterface.createTable('outbox', {
      id: { type: Sequelize.STRING(40), primaryKey: true, allowNull: false },
      kind: { type: Sequelize.STRING(16), allowNull: false },
      // No foreign key: an event is written inside the change's transaction, and an endpoint deleted meanwhile
      // must not fail that change (a sign-in). Deleting an endpoint deletes its rows; a stray one fails alone.
      endpoint_id: { type: Sequelize.STRING(36), allowNull: true },
      event_type: { type: Sequelize.STRING(64), allowNull: false },
      payload: { type: Sequelize.TEXT, allowNull: false },
      status: { type: Sequelize.STRING(16), allowNull: false, defaultValue: 'pending' },
      attempts: { type: Sequelize.INTEGER, allowNull: false, defaultValue: 0 },
      next_attempt_at: { type: Sequelize.DATE, allowNull: false },
      claimed_until: { type: Sequelize.DATE, allowNull: true },
      last_attempt_at: { type: Sequelize.DATE, allowNull: true },
      response_status: { type: Sequelize.INTEGER, allowNull: true },
      last_error: { type: Sequelize.STRING(255), allowNull: true },
      expires_at: { type: Sequelize.DATE, allowNull: true },
      created_at: { type: Sequelize.DATE, allowNull: false },
      updated_at: { type: Sequelize.DATE, allowNull: false },
    });
    await queryInterface.addIndex('outbox', ['status', 'next_attempt_at'], { name: 'outbox_status_next_attempt_at' });
    await queryInterface.addIndex('outbox', ['endpoint_id', 'created_at'], { name: 'outbox_endpoint_id_created_at' });
  },

  async down(queryInterface) {
    await queryInterface.dropTable('outbox');
    await queryInterface.dropTable('webhook_endpoints');
  },
};
