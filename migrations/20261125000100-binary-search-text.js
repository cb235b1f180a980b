'use strict';

// MariaDB only: search_text becomes a byte string (VARBINARY) holding the same lower-cased UTF-8 text.
// MariaDB's LIKE '%term%' on a multi-byte character set walks the pattern character by character for
// every row; on a binary string it uses its Boyer-Moore substring search. Measured at 100,000 users:
// the search's index scan 33 ms → 12 ms. A UTF-8 byte substring is a character substring (no character's
// bytes occur inside another's), and the search escapes `_`, so what a search matches does not change.
// SQLite's column stays as it is: its LIKE costs the same as instr() there.
const EXPRESSION = 'LOWER(CONCAT_WS(CHAR(1), email, username, first_name, last_name))';
const INDEX = 'users_search_text_created_at_id';

async function replaceColumn(queryInterface, type, expression) {
  await queryInterface.removeIndex('users', INDEX);
  await queryInterface.sequelize.query('ALTER TABLE users DROP COLUMN search_text');
  await queryInterface.sequelize.query(`ALTER TABLE users ADD COLUMN search_text ${type} AS (${expression}) VIRTUAL`);
  await queryInterface.addIndex('users', ['search_text', 'created_at', 'id'], { name: INDEX });
}

module.exports = {
  async up(queryInterface) {
    if (queryInterface.sequelize.getDialect() !== 'mysql') return;
    await replaceColumn(queryInterface, 'VARBINARY(2120)', `CAST(${EXPRESSION} AS BINARY)`);
  },

  async down(queryInterface) {
    if (queryInterface.sequelize.getDialect() !== 'mysql') return;
    await replaceColumn(queryInterface, 'VARCHAR(530) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin', EXPRESSION);
  },
};
