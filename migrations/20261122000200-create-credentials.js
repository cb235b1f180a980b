'use strict';

/** One-time credentials and provider links: OTP codes, magic-link tokens, reset tokens, OAuth accounts. */
module.exports = {
  async up(queryInterface, Sequelize) {
    const nowSeconds =
      queryInterface.sequelize.getDialect() === 'sqlite'
        ? Sequelize.literal("(CAST(strftime('%s','now') AS INTEGER))")
        : Sequelize.literal('(UNIX_TIMESTAMP())');

    // SPEC 2.5; `code` holds a hash of the code, never the code.
    await queryInterface.createTable('otp_codes', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      user_email: { type: Sequelize.STRING(255), allowNull: false },
      code: { type: Sequelize.STRING(128), allowNull: false },
      expires_at: { type: Sequelize.BIGINT, allowNull: false },
      attempts: { type: Sequelize.INTEGER, allowNull: false, defaultValue: 0 },
      created_at: { type: Sequelize.BIGINT, allowNull: false, defaultValue: nowSeconds },
    });
    await queryInterface.addIndex('otp_codes', ['user_email']);

    // Magic-link tokens; `value` holds a hash of the token.
    await queryInterface.createTable('auth_verification', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      identifier: { type: Sequelize.STRING(255), allowNull: false },
      value: { type: Sequelize.STRING(128), allowNull: false, unique: true },
      expires_at: { type: Sequelize.DATE, allowNull: false },
      created_at: { type: Sequelize.DATE, allowNull: false },
      updated_at: { type: Sequelize.DATE, allowNull: false },
    });
    await queryInterface.addIndex('auth_verification', ['identifier']);

    await queryInterface.createTable('password_reset_tokens', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      user_id: {
        type: Sequelize.STRING(36),
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
      },
      token_hash: { type: Sequelize.STRING(128), allowNull: false, unique: true },
      expires_at: { type: Sequelize.DATE, allowNull: false },
      used_at: { type: Sequelize.DATE, allowNull: true },
      created_at: { type: Sequelize.DATE, allowNull: false },
    });
    await queryInterface.addIndex('password_reset_tokens', ['user_id']);

    await queryInterface.createTable('oauth_accounts', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      user_id: {
        type: Sequelize.STRING(36),
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
      },
      provider: { type: Sequelize.STRING(32), allowNull: false },
      provider_account_id: { type: Sequelize.STRING(255), allowNull: false },
      email: { type: Sequelize.STRING(255), allowNull: true },
      created_at: { type: Sequelize.DATE, allowNull: false },
      updated_at: { type: Sequelize.DATE, allowNull: false },
    });
    await queryInterface.addIndex('oauth_accounts', ['provider', 'provider_account_id'], {
      unique: true,
      name: 'oauth_accounts_provider_account',
    });
    await queryInterface.addIndex('oauth_accounts', ['user_id', 'provider'], {
      unique: true,
      name: 'oauth_accounts_user_provider',
    });
  },

  async down(queryInterface) {
    await queryInterface.dropTable('oauth_accounts');
    await queryInterface.dropTable('password_reset_tokens');
    await queryInterface.dropTable('auth_verification');
    await queryInterface.dropTable('otp_codes');
  },
};
