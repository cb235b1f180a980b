'use strict';

/**
 * Single-token revocations (logout), kept in the database so a Redis that restarts empty cannot forget
 * them. Redis holds a copy for the hot path; `mirrored` is false while that copy may be missing.
 * `expires_at` (epoch seconds) is when the token could no longer be refreshed; later rows are pruned.
 */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('revoked_tokens', {
      jti: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      expires_at: { type: Sequelize.BIGINT, allowNull: false },
      mirrored: { type: Sequelize.BOOLEAN, allowNull: false, defaultValue: false },
    });
    await queryInterface.addIndex('revoked_tokens', ['expires_at']);
    await queryInterface.addIndex('revoked_tokens', ['mirrored']);
  },

  async down(queryInterface) {
    await queryInterface.dropTable('revoked_tokens');
  },
};
