'use strict';

/**
 * One account, one set of credentials (CONTRACT 18).
 *
 * users.self_registered: the account signed itself up with a password (registration by JSON or form) and is not
 * the first user. Only such an account is "unverified" while its address is unproven: it may not add durable
 * credentials, and the squatter rule ends every credential a stranger could have put on it when the owner
 * proves the address. Accounts made by an admin, the seeder, an import, a provider, a code or a magic link are
 * vouched for (false), whatever email_verified_at shows.
 *
 * Existing rows: an unverified account with a password that has an `auth.register` activity row signed itself
 * up; the first user (the bootstrap claim) is vouched for. Activity rows past retention are gone: such an old
 * account counts as vouched for, which is what it was treated as before apart from the squatter rule.
 */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.addColumn('users', 'self_registered', { type: Sequelize.BOOLEAN, allowNull: false, defaultValue: false });
    const [claims] = await queryInterface.sequelize.query("SELECT value FROM settings WHERE `key` = 'bootstrap.firstAdmin'");
    let firstUser = null;
    try {
      const raw = claims[0] && claims[0].value;
      firstUser = (typeof raw === 'string' ? JSON.parse(raw) : raw)?.userId ?? null;
    } catch {
      firstUser = null;
    }
    await queryInterface.sequelize.query(
      `UPDATE users SET self_registered = 1
        WHERE email_verified_at IS NULL AND password_hash IS NOT NULL
          AND id <> :firstUser
          AND id IN (SELECT user_id FROM activity_logs WHERE action = 'auth.register' AND user_id IS NOT NULL)`,
      { replacements: { firstUser: firstUser ?? '' } },
    );
  },

  async down(queryInterface) {
    // Plain DROP COLUMN on both: Sequelize's SQLite removeColumn rebuilds the table, generated columns and all.
    await queryInterface.sequelize.query('ALTER TABLE users DROP COLUMN self_registered');
  },
};
