'use strict';

// MySQL/MariaDB only: oauth_accounts.provider_account_id compares byte for byte (utf8mb4_bin). Under the
// database's default collation `provider_account_id = 'abc'` also found 'ABC': a provider whose account ids
// are case-sensitive (opaque strings, not numbers) could have one person's id sign in as another's, and the
// unique (provider, provider_account_id) index refused the second of two ids differing only in case
// (issue 44, finding 6). The service stores ids exactly as the provider gives them, so an exact comparison
// loses no legitimate match. SQLite's `=` already compares exactly (BINARY collation): nothing to do there.
//
// `down` returns the column to its table's default collation, which is what it had (it was created without a
// collation of its own). Going down fails on the unique index if ids differing only in case were stored since.

function modify(queryInterface, charset, collation) {
  return queryInterface.sequelize.query(
    `ALTER TABLE oauth_accounts MODIFY provider_account_id VARCHAR(255) CHARACTER SET ${charset} COLLATE ${collation} NOT NULL`,
  );
}

module.exports = {
  async up(queryInterface) {
    if (queryInterface.sequelize.getDialect() !== 'mysql') return;
    await modify(queryInterface, 'utf8mb4', 'utf8mb4_bin');
  },

  async down(queryInterface) {
    if (queryInterface.sequelize.getDialect() !== 'mysql') return;
    const [rows] = await queryInterface.sequelize.query(
      `SELECT c.CHARACTER_SET_NAME AS charset, t.TABLE_COLLATION AS collation
         FROM information_schema.TABLES t JOIN information_schema.COLLATIONS c ON c.COLLATION_NAME = t.TABLE_COLLATION
        WHERE t.TABLE_SCHEMA = DATABASE() AND t.TABLE_NAME = 'oauth_accounts'`,
    );
    if (rows.length !== 1) throw new Error('no default collation found for table oauth_accounts');
    await modify(queryInterface, rows[0].charset, rows[0].collation);
  },
};
