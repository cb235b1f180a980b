'use strict';

/** Admin-managed state: settings, plugins and the activity log. */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('settings', {
      key: { type: Sequelize.STRING(100), primaryKey: true, allowNull: false },
      value: { type: Sequelize.TEXT, allowNull: false },
      updated_at: { type: Sequelize.DATE, allowNull: false },
    });

    await queryInterface.createTable('plugins', {
      name: { type: Sequelize.STRING(64), primaryKey: true, allowNull: false },
      active: { type: Sequelize.BOOLEAN, allowNull: false, defaultValue: false },
      settings: { type: Sequelize.TEXT, allowNull: false },
      created_at: { type: Sequelize.DATE, allowNull: false },
      updated_at: { type: Sequelize.DATE, allowNull: false },
    });

    // No foreign key to users: the log outlives the accounts it mentions.
    await queryInterface.createTable('activity_logs', {
      id: { type: Sequelize.BIGINT, primaryKey: true, autoIncrement: true, allowNull: false },
      action: { type: Sequelize.STRING(64), allowNull: false },
      user_id: { type: Sequelize.STRING(36), allowNull: true },
      email: { type: Sequelize.STRING(255), allowNull: true },
      ip: { type: Sequelize.STRING(64), allowNull: true },
      user_agent: { type: Sequelize.STRING(512), allowNull: true },
      details: { type: Sequelize.TEXT, allowNull: true },
      created_at: { type: Sequelize.DATE, allowNull: false },
    });
    await queryInterface.addIndex('activity_logs', ['action']);
    await queryInterface.addIndex('activity_logs', ['user_id']);
    await queryInterface.addIndex('activity_logs', ['created_at']);
  },

  async down(queryInterface) {
    await queryInterface.dropTable('activity_logs');
    await queryInterface.dropTable('plugins');
    await queryInterface.dropTable('settings');
  },
};
