'use strict';

/**
 * Second factor (CONTRACT 9): a user's TOTP secret (sealed with a key derived from JWT_SECRET, never in
 * clear), the last time step a code was accepted for (replay refused), and the HMACs of the user's
 * recovery codes, each spent once.
 */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('two_factor', {
      user_id: {
        type: Sequelize.STRING(36),
        primaryKey: true,
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
      },
      secret: { type: Sequelize.STRING(255), allowNull: true },
      pending_secret: { type: Sequelize.STRING(255), allowNull: true },
      enabled_at: { type: Sequelize.DATE(3), allowNull: true },
      last_time_step: { type: Sequelize.BIGINT, allowNull: true },
      created_at: { type: Sequelize.DATE(3), allowNull: false },
      updated_at: { type: Sequelize.DATE(3), allowNull: false },
    });
    await queryInterface.createTable('recovery_codes', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      user_id: {
        type: Sequelize.STRING(36),
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
      },
      code_hash: { type: Sequelize.STRING(64), allowNull: false },
      used_at: { type: Sequelize.DATE(3), allowNull: true },
      created_at: { type: Sequelize.DATE(3), allowNull: false },
    });
    await queryInterface.addIndex('recovery_codes', ['user_id', 'code_hash']);
  },

  async down(queryInterface) {
    await queryInterface.dropTable('recovery_codes');
    await queryInterface.dropTable('two_factor');
  },
};
