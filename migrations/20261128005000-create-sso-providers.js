'use strict';

/**
 * Enterprise single sign-on (CONTRACT 15): the identity providers an organisation signs in through, and the
 * email domains each one owns. A domain is its own row under a unique index, so two providers can never both
 * claim it, however their saves race. Linked identities need no table: they are `oauth_accounts` rows whose
 * provider is `sso:<slug>`, so the credential registry (linked accounts) already covers them.
 */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('sso_providers', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      // `sso:<slug>` must fit oauth_accounts.provider (32 characters).
      slug: { type: Sequelize.STRING(28), allowNull: false, unique: true },
      name: { type: Sequelize.STRING(100), allowNull: false },
      protocol: { type: Sequelize.STRING(8), allowNull: false },
      enforce: { type: Sequelize.BOOLEAN, allowNull: false, defaultValue: false },
      auto_create: { type: Sequelize.BOOLEAN, allowNull: false, defaultValue: false },
      default_role: { type: Sequelize.STRING(32), allowNull: false, defaultValue: 'viewer' },
      oidc_issuer: { type: Sequelize.STRING(2048), allowNull: true },
      oidc_client_id: { type: Sequelize.STRING(255), allowNull: true },
      // AES-256-GCM under a key derived from JWT_SECRET, bound to the provider's id (src/credentials/sealed-box.ts).
      oidc_client_secret_sealed: { type: Sequelize.TEXT, allowNull: true },
      oidc_scopes: { type: Sequelize.STRING(512), allowNull: true },
      saml_entry_point: { type: Sequelize.STRING(2048), allowNull: true },
      saml_idp_entity_id: { type: Sequelize.STRING(1024), allowNull: true },
      saml_certificate: { type: Sequelize.TEXT, allowNull: true },
      created_at: { type: Sequelize.DATE(3), allowNull: false },
      updated_at: { type: Sequelize.DATE(3), allowNull: false },
    });
    await queryInterface.createTable('sso_domains', {
      domain: { type: Sequelize.STRING(253), primaryKey: true, allowNull: false },
      provider_id: { type: Sequelize.STRING(36), allowNull: false },
    });
    await queryInterface.addIndex('sso_domains', ['provider_id'], { name: 'sso_domains_provider' });
  },

  async down(queryInterface) {
    await queryInterface.dropTable('sso_domains');
    await queryInterface.dropTable('sso_providers');
  },
};
