'use strict';

// The admin user list stays fast at 100,000 users (issue 13):
// - users(created_at, id) serves "newest first" paging without sorting the whole table;
// - search_text, a generated column (never written by the service) joining email, username, first and
//   last name with a separator no search term contains, indexed so a `LIKE '%term%'` search reads one
//   narrow index instead of four columns of every row. Substring search cannot seek in a B-tree; scanning
//   the index is what keeps it within budget. On MariaDB the column is lower-cased with a binary
//   collation (the search lower-cases its term): a collation-aware LIKE costs twice as much per row.
//   SQLite's LIKE already ignores ASCII case.
const SEPARATOR_SQL = { mysql: 'CHAR(1)', sqlite: 'char(1)' };

module.exports = {
  async up(queryInterface) {
    await queryInterface.addIndex('users', ['created_at', 'id'], { name: 'users_created_at_id' });
    const dialect = queryInterface.sequelize.getDialect();
    if (dialect === 'mysql') {
      await queryInterface.sequelize.query(
        `ALTER TABLE users ADD COLUMN search_text VARCHAR(530) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin AS (LOWER(CONCAT_WS(${SEPARATOR_SQL.mysql}, email, username, first_name, last_name))) VIRTUAL`,
      );
    } else {
      const sep = SEPARATOR_SQL.sqlite;
      await queryInterface.sequelize.query(
        `ALTER TABLE users ADD COLUMN search_text TEXT GENERATED ALWAYS AS (email || ${sep} || username || ${sep} || coalesce(first_name, '') || ${sep} || coalesce(last_name, '')) VIRTUAL`,
      );
    }
    await queryInterface.addIndex('users', ['search_text'], { name: 'users_search_text' });
  },

  async down(queryInterface) {
    await queryInterface.removeIndex('users', 'users_search_text');
    await queryInterface.sequelize.query('ALTER TABLE users DROP COLUMN search_text');
    await queryInterface.removeIndex('users', 'users_created_at_id');
  },
};
