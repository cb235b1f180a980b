'use strict';

/**
 * The OpenID Provider (CONTRACT 14): registered applications (secrets stored hashed), the provider's stored
 * artifacts (sessions, grants, codes, tokens, interactions: one row each, by model name and id, as the
 * oidc-provider adapter reads them), each grant tied to the sign-in session it came from, and the consent a
 * user gave an application (remembered per user and client, beyond any one session).
 */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('oauth_clients', {
      client_id: { type: Sequelize.STRING(64), primaryKey: true, allowNull: false },
      name: { type: Sequelize.STRING(255), allowNull: false },
      secret_hash: { type: Sequelize.STRING(128), allowNull: true },
      redirect_uris: { type: Sequelize.TEXT, allowNull: false },
      post_logout_redirect_uris: { type: Sequelize.TEXT, allowNull: false },
      public: { type: Sequelize.BOOLEAN, allowNull: false, defaultValue: false },
      first_party: { type: Sequelize.BOOLEAN, allowNull: false, defaultValue: false },
      allowed_scopes: { type: Sequelize.TEXT, allowNull: false },
      grant_types: { type: Sequelize.TEXT, allowNull: false },
      created_at: { type: Sequelize.DATE(3), allowNull: false },
      updated_at: { type: Sequelize.DATE(3), allowNull: false },
    });
    await queryInterface.createTable('oidc_payloads', {
      model: { type: Sequelize.STRING(40), primaryKey: true, allowNull: false },
      id: { type: Sequelize.STRING(255), primaryKey: true, allowNull: false },
      payload: { type: Sequelize.TEXT, allowNull: false },
      grant_id: { type: Sequelize.STRING(255), allowNull: true },
      uid: { type: Sequelize.STRING(255), allowNull: true },
      user_code: { type: Sequelize.STRING(255), allowNull: true },
      expires_at: { type: Sequelize.DATE(3), allowNull: true },
      consumed_at: { type: Sequelize.DATE(3), allowNull: true },
    });
    await queryInterface.addIndex('oidc_payloads', ['grant_id'], { name: 'oidc_payloads_grant_id' });
    await queryInterface.addIndex('oidc_payloads', ['uid'], { name: 'oidc_payloads_uid' });
    await queryInterface.addIndex('oidc_payloads', ['expires_at'], { name: 'oidc_payloads_expires_at' });
    await queryInterface.createTable('oidc_grants', {
      grant_id: { type: Sequelize.STRING(255), primaryKey: true, allowNull: false },
      user_id: { type: Sequelize.STRING(36), allowNull: false },
      client_id: { type: Sequelize.STRING(64), allowNull: false },
      session_id: { type: Sequelize.STRING(36), allowNull: false },
      created_at: { type: Sequelize.DATE(3), allowNull: false },
    });
    await queryInterface.addIndex('oidc_grants', ['user_id', 'client_id'], { name: 'oidc_grants_user_client' });
    await queryInterface.addIndex('oidc_grants', ['session_id'], { name: 'oidc_grants_session' });
    await queryInterface.createTable('oauth_consents', {
      user_id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      client_id: { type: Sequelize.STRING(64), primaryKey: true, allowNull: false },
      scope: { type: Sequelize.STRING(512), allowNull: false },
      created_at: { type: Sequelize.DATE(3), allowNull: false },
      updated_at: { type: Sequelize.DATE(3), allowNull: false },
    });
  },

  async down(queryInterface) {
    await queryInterface.dropTable('oauth_consents');
    await queryInterface.dropTable('oidc_grants');
    await queryInterface.dropTable('oidc_payloads');
    await queryInterface.dropTable('oauth_clients');
  },
};
