'use strict';

// MySQL/MariaDB only: the columns looked up by email compare byte for byte (utf8mb4_bin). Under the
// database's default collation (utf8mb4_general_ci, utf8mb4_unicode_ci, …) `email = 'admin@exämple.com'`
// found admin@example.com (accents, case and fullwidth letters fold), so a provider-verified look-alike
// signed in as, and was refused as a duplicate of, the real address (issue 26, finding 1). The service
// stores one normal form (trimmed, ASCII lower-cased), so an exact comparison loses no legitimate match;
// existing rows are brought to that form first. Indexes (users.email stays unique) and rows are kept.
// SQLite's `=` already compares exactly (BINARY collation): nothing to do there.
//
// `down` returns each column to its table's default collation, which is what the columns had: they were
// created without a collation of their own. Rows lower-cased by `up` stay lower-cased (the service wrote
// them that way anyway). Going down fails on a unique-index duplicate if look-alike addresses that only
// the exact comparison told apart have been stored since.
const COLUMNS = [
  // The account itself: sign-in, registration, reset, OTP, magic link, OAuth, admin create.
  { table: 'users', column: 'email' },
  // OTP codes are found and voided by the address they were sent to.
  { table: 'otp_codes', column: 'user_email' },
  // Magic-link rows are voided by the address (`identifier`) they were sent to.
  { table: 'auth_verification', column: 'identifier' },
];

function modify(queryInterface, { table, column }, charset, collation) {
  return queryInterface.sequelize.query(`ALTER TABLE ${table} MODIFY ${column} VARCHAR(255) CHARACTER SET ${charset} COLLATE ${collation} NOT NULL`);
}

async function tableDefault(queryInterface, table) {
  const [rows] = await queryInterface.sequelize.query(
    `SELECT c.CHARACTER_SET_NAME AS charset, t.TABLE_COLLATION AS collation
       FROM information_schema.TABLES t JOIN information_schema.COLLATIONS c ON c.COLLATION_NAME = t.TABLE_COLLATION
      WHERE t.TABLE_SCHEMA = DATABASE() AND t.TABLE_NAME = ?`,
    { replacements: [table] },
  );
  if (rows.length !== 1) throw new Error(`no default collation found for table ${table}`);
  return rows[0];
}

module.exports = {
  async up(queryInterface) {
    if (queryInterface.sequelize.getDialect() !== 'mysql') return;
    for (const target of COLUMNS) {
      const { table, column } = target;
      // Before the change, while users.email is unique under the case-insensitive collation (which also
      // ignores trailing spaces): no two users differ only in case or trailing spaces, so no user's normal
      // form collides with another's. Should a leading space ever have made one, the unique index stops
      // the migration here, before any column changed. otp_codes and auth_verification are not unique.
      await queryInterface.sequelize.query(
        `UPDATE ${table} SET ${column} = LOWER(TRIM(${column})) WHERE CAST(${column} AS BINARY) <> CAST(LOWER(TRIM(${column})) AS BINARY)`,
      );
      await modify(queryInterface, target, 'utf8mb4', 'utf8mb4_bin');
    }
  },

  async down(queryInterface) {
    if (queryInterface.sequelize.getDialect() !== 'mysql') return;
    for (const target of [...COLUMNS].reverse()) {
      const { charset, collation } = await tableDefault(queryInterface, target.table);
      await modify(queryInterface, target, charset, collation);
    }
  },
};
