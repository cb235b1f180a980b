'use strict';

/**
 * Token signing keys of an asymmetric JWT_ALGORITHM (CONTRACT 11): the public JWK, the private key encrypted
 * under a key derived from JWT_SECRET, and when a replaced key stops verifying (null: the key that signs).
 */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('signing_keys', {
      kid: { type: Sequelize.STRING(64), primaryKey: true, allowNull: false },
      algorithm: { type: Sequelize.STRING(16), allowNull: false },
      public_jwk: { type: Sequelize.TEXT, allowNull: false },
      private_key: { type: Sequelize.TEXT, allowNull: false },
      created_at: { type: Sequelize.DATE(3), allowNull: false },
      retires_at: { type: Sequelize.DATE(3), allowNull: true },
    });
  },

  async down(queryInterface) {
    await queryInterface.dropTable('signing_keys');
  },
};
