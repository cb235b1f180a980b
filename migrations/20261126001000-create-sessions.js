'use strict';

/**
 * Sessions (CONTRACT 8): one row per sign-in, listed to their user and admins, ended one by one. The tokens of
 * a session carry its id (`sid`); ending it also writes a revocation of that id (revoked_tokens), which every
 * instance checks on the hot path without reading this table.
 *
 * revoked_tokens.effective_at: a refresh supersedes the presented token but lets it work for the reuse window,
 * so its revocation takes effect later (epoch seconds; null: at once, as every revocation before this one).
 */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('sessions', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      user_id: {
        type: Sequelize.STRING(36),
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
      },
      method: { type: Sequelize.STRING(32), allowNull: false },
      ip: { type: Sequelize.STRING(64), allowNull: true },
      user_agent: { type: Sequelize.STRING(512), allowNull: true },
      browser: { type: Sequelize.STRING(64), allowNull: true },
      os: { type: Sequelize.STRING(64), allowNull: true },
      created_at: { type: Sequelize.DATE(3), allowNull: false },
      last_used_at: { type: Sequelize.DATE(3), allowNull: false },
      expires_at: { type: Sequelize.DATE(3), allowNull: false },
      revoked_at: { type: Sequelize.DATE(3), allowNull: true },
    });
    await queryInterface.addIndex('sessions', ['user_id', 'created_at']);
    await queryInterface.addIndex('sessions', ['expires_at']);
    await queryInterface.addColumn('revoked_tokens', 'effective_at', { type: Sequelize.BIGINT, allowNull: true });
  },

  async down(queryInterface) {
    await queryInterface.removeColumn('revoked_tokens', 'effective_at');
    await queryInterface.dropTable('sessions');
  },
};
