'use strict';

/**
 * Account lifecycle (CONTRACT 12).
 *
 * users.email_verified_at: when the address was proven (a verification link, a one-time code, a magic link,
 * a provider's verified address, an admin's word); null while unproven. Existing rows: an account WITHOUT a
 * password counts as verified from its creation (it was made by proving the address, or by an admin, and has
 * no password a squatter could hold); an account WITH a password starts unverified, because nothing ever
 * proved its address: that is exactly the squatted account the rule exists for. Its owner verifies by the
 * link (resend from the profile page) or by signing in with a code, a link or a provider.
 *
 * email_tokens: single-use links mailed to prove an address: `verify` (the account's own address) and
 * `change` (a new address, in new_email, confirmed before it replaces the old). Only a SHA-256 of the token
 * is stored; session_id is the session that asked for a change (it stays signed in when the change is made).
 * Rows go with their user (ON DELETE CASCADE).
 */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.addColumn('users', 'email_verified_at', { type: Sequelize.DATE(3), allowNull: true });
    await queryInterface.sequelize.query('UPDATE users SET email_verified_at = created_at WHERE password_hash IS NULL');
    // The admin list's "unverified" filter.
    await queryInterface.addIndex('users', ['email_verified_at'], { name: 'users_email_verified_at' });

    await queryInterface.createTable('email_tokens', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      user_id: {
        type: Sequelize.STRING(36),
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
      },
      purpose: { type: Sequelize.STRING(16), allowNull: false },
      new_email: { type: Sequelize.STRING(255), allowNull: true },
      token_hash: { type: Sequelize.STRING(64), allowNull: false, unique: true },
      session_id: { type: Sequelize.STRING(36), allowNull: true },
      expires_at: { type: Sequelize.DATE(3), allowNull: false },
      created_at: { type: Sequelize.DATE(3), allowNull: false },
    });
    await queryInterface.addIndex('email_tokens', ['user_id', 'purpose'], { name: 'email_tokens_user_purpose' });
    await queryInterface.addIndex('email_tokens', ['expires_at'], { name: 'email_tokens_expires_at' });
  },

  async down(queryInterface) {
    await queryInterface.dropTable('email_tokens');
    await queryInterface.removeIndex('users', 'users_email_verified_at');
    // Plain DROP COLUMN on both: Sequelize's SQLite removeColumn rebuilds the table, generated columns and all.
    await queryInterface.sequelize.query('ALTER TABLE users DROP COLUMN email_verified_at');
  },
};
