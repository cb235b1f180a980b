'use strict';

/**
 * The dashboard's figures (CONTRACT 6) without reading the activity log: activity_rollups counts activity rows
 * per hour (epoch hours, so both databases bucket alike), action, method and reason, raised by one upsert
 * where a row is written. The indexes make the dashboard's other figures index range scans: sessions still
 * active (expires_at, revoked_at: counted from the index alone) and enabled second factors per user.
 */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('activity_rollups', {
      hour: { type: Sequelize.INTEGER, allowNull: false, primaryKey: true },
      action: { type: Sequelize.STRING(64), allowNull: false, primaryKey: true },
      method: { type: Sequelize.STRING(32), allowNull: false, primaryKey: true },
      reason: { type: Sequelize.STRING(32), allowNull: false, primaryKey: true },
      total: { type: Sequelize.INTEGER, allowNull: false },
    });
    await queryInterface.addIndex('sessions', ['expires_at', 'revoked_at'], { name: 'sessions_expires_at_revoked_at' });
    await queryInterface.addIndex('two_factor', ['enabled_at', 'user_id'], { name: 'two_factor_enabled_at_user_id' });
  },

  async down(queryInterface) {
    await queryInterface.removeIndex('two_factor', 'two_factor_enabled_at_user_id');
    await queryInterface.removeIndex('sessions', 'sessions_expires_at_revoked_at');
    await queryInterface.dropTable('activity_rollups');
  },
};
