'use strict';

/**
 * API keys (CONTRACT 11): a keyed hash of each key (never the key), its owner, name, permissions, expiry,
 * last use and revocation. Looked up by hash on a verification that missed the cache, hence the unique index.
 */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('api_keys', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      user_id: {
        type: Sequelize.STRING(36),
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
      },
      name: { type: Sequelize.STRING(100), allowNull: false },
      prefix: { type: Sequelize.STRING(16), allowNull: false },
      key_hash: { type: Sequelize.STRING(64), allowNull: false },
      permissions: { type: Sequelize.TEXT, allowNull: false },
      created_at: { type: Sequelize.DATE(3), allowNull: false },
      expires_at: { type: Sequelize.DATE(3), allowNull: true },
      last_used_at: { type: Sequelize.DATE(3), allowNull: true },
      revoked_at: { type: Sequelize.DATE(3), allowNull: true },
    });
    await queryInterface.addIndex('api_keys', ['key_hash'], { unique: true, name: 'api_keys_key_hash' });
    await queryInterface.addIndex('api_keys', ['user_id', 'created_at'], { name: 'api_keys_user_created' });
  },

  async down(queryInterface) {
    await queryInterface.dropTable('api_keys');
  },
};
