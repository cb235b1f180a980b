'use strict';

/**
 * Passkeys (CONTRACT 10): one row per WebAuthn credential a user registered. The credential id and the COSE
 * public key are bytes; they are kept as base64url text (ASCII, the library's own string form), which both
 * dialects store and return unchanged. A credential is found by `credential_hash` (SHA-256 of its id bytes,
 * lower-case hex): base64url is case-sensitive while MariaDB's default collation is not, and an id may be up
 * to 1023 bytes, longer than MariaDB indexes a utf8mb4 column. The hash compares the same on both.
 */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('passkeys', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      user_id: {
        type: Sequelize.STRING(36),
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
      },
      name: { type: Sequelize.STRING(64), allowNull: false },
      credential_id: { type: Sequelize.TEXT, allowNull: false },
      credential_hash: { type: Sequelize.STRING(64), allowNull: false },
      public_key: { type: Sequelize.TEXT, allowNull: false },
      counter: { type: Sequelize.BIGINT, allowNull: false, defaultValue: 0 },
      transports: { type: Sequelize.STRING(255), allowNull: true },
      device_type: { type: Sequelize.STRING(32), allowNull: false },
      backed_up: { type: Sequelize.BOOLEAN, allowNull: false, defaultValue: false },
      created_at: { type: Sequelize.DATE(3), allowNull: false },
      last_used_at: { type: Sequelize.DATE(3), allowNull: true },
    });
    await queryInterface.addIndex('passkeys', ['credential_hash'], { unique: true, name: 'passkeys_credential_hash_unique' });
    await queryInterface.addIndex('passkeys', ['user_id', 'created_at']);
  },

  async down(queryInterface) {
    await queryInterface.dropTable('passkeys');
  },
};
