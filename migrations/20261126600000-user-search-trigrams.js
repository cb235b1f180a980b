'use strict';

// A trigram index for the user search (issue 34). `q` matches a substring anywhere in the email, username
// or names; no B-tree seeks a substring, so at a million users a search read the whole search index
// (0.6–2 s for a term few users hold). This table holds every distinct three-unit slice of each user's
// `search_text` (bytes on MariaDB, where the column is lower-cased UTF-8 bytes; characters, ASCII
// lower-cased, on SQLite, whose LIKE ignores only ASCII case): every user whose text contains the term
// holds every trigram of the term, so the users holding the term's rarest trigrams are a small superset
// of the matches, which the search then checks with its LIKE (src/services/user-search.ts). Each trigram's
// users are kept in creation order (the key is gram, created_at, user_id), so the newest matches of a term
// thousands hold are the first ones read, wherever in time its matches lie.
//
// Database triggers keep it: whatever writes a user (the service, sequelize-cli seeders, an operator's
// SQL) updates its trigrams in the same statement and transaction, as the generated `search_text` itself
// is kept. `user_search_positions` holds 1…2120 (the column's longest value) so the same INSERT … SELECT
// slices a text on both databases, neither of which can loop in SQL shared by both. There is no index on
// `user_id` (it would double the table): a row's old trigrams are deleted by key, sliced from OLD.
//
// On MySQL/MariaDB with binary logging on, the migrating user needs SUPER (or, on MariaDB 10.5+, BINLOG
// ADMIN) to create triggers, unless the server runs with `log_bin_trust_function_creators=1` (docs/operations.md).
const POSITIONS = 2120;
const PREFIX = 'user_search_grams';

function dialectSql(dialect) {
  if (dialect === 'mysql') {
    const slices = (row) => `SELECT DISTINCT SUBSTRING(${row}.search_text, p.n, 3) AS gram FROM user_search_positions p WHERE p.n <= LENGTH(${row}.search_text) - 2`;
    const insert = (row) => `INSERT INTO user_search_grams (gram, created_at, user_id) SELECT s.gram, ${row}.created_at, ${row}.id FROM (${slices(row)}) AS s`;
    // Multi-table DELETE: each old trigram found by the primary key (gram, created_at, user_id).
    const remove = (row) =>
      `DELETE g FROM user_search_grams g JOIN (${slices(row)}) AS s ON g.gram = s.gram WHERE g.created_at = ${row}.created_at AND g.user_id = ${row}.id`;
    return {
      tables: [
        'CREATE TABLE user_search_positions (n SMALLINT UNSIGNED NOT NULL PRIMARY KEY)',
        'CREATE TABLE user_search_grams (gram VARBINARY(3) NOT NULL, created_at DATETIME(3) NOT NULL, user_id VARCHAR(36) NOT NULL, PRIMARY KEY (gram, created_at, user_id))',
      ],
      backfill: 'INSERT IGNORE INTO user_search_grams (gram, created_at, user_id) SELECT SUBSTRING(u.search_text, p.n, 3), u.created_at, u.id FROM users u JOIN user_search_positions p ON p.n <= LENGTH(u.search_text) - 2',
      triggers: [
        `CREATE TRIGGER ${PREFIX}_insert AFTER INSERT ON users FOR EACH ROW ${insert('NEW')}`,
        // Only a change of the searched text (or of the creation time the index is ordered by) touches the
        // index: a login's update of other columns does not.
        `CREATE TRIGGER ${PREFIX}_update AFTER UPDATE ON users FOR EACH ROW
           BEGIN IF NOT (NEW.search_text <=> OLD.search_text AND NEW.created_at <=> OLD.created_at) THEN ${remove('OLD')}; ${insert('NEW')}; END IF; END`,
        `CREATE TRIGGER ${PREFIX}_delete AFTER DELETE ON users FOR EACH ROW ${remove('OLD')}`,
      ],
    };
  }
  const slices = (row) => `SELECT DISTINCT lower(substr(${row}.search_text, p.n, 3)) AS gram FROM user_search_positions p WHERE p.n <= length(${row}.search_text) - 2`;
  const insert = (row) => `INSERT INTO user_search_grams (gram, created_at, user_id) SELECT s.gram, ${row}.created_at, ${row}.id FROM (${slices(row)}) AS s`;
  const remove = (row) => `DELETE FROM user_search_grams WHERE created_at = ${row}.created_at AND user_id = ${row}.id AND gram IN (${slices(row)})`;
  return {
    tables: [
      'CREATE TABLE user_search_positions (n INTEGER NOT NULL PRIMARY KEY)',
      'CREATE TABLE user_search_grams (gram TEXT NOT NULL, created_at DATETIME NOT NULL, user_id VARCHAR(36) NOT NULL, PRIMARY KEY (gram, created_at, user_id)) WITHOUT ROWID',
    ],
    backfill: 'INSERT OR IGNORE INTO user_search_grams (gram, created_at, user_id) SELECT lower(substr(u.search_text, p.n, 3)), u.created_at, u.id FROM users u JOIN user_search_positions p ON p.n <= length(u.search_text) - 2',
    triggers: [
      `CREATE TRIGGER ${PREFIX}_insert AFTER INSERT ON users BEGIN ${insert('NEW')}; END`,
      `CREATE TRIGGER ${PREFIX}_update AFTER UPDATE OF email, username, first_name, last_name, created_at ON users BEGIN ${remove('OLD')}; ${insert('NEW')}; END`,
      `CREATE TRIGGER ${PREFIX}_delete AFTER DELETE ON users BEGIN ${remove('OLD')}; END`,
    ],
  };
}

module.exports = {
  async up(queryInterface) {
    const { sequelize } = queryInterface;
    const sql = dialectSql(sequelize.getDialect());
    await sequelize.transaction(async (transaction) => {
      for (const statement of sql.tables) await sequelize.query(statement, { transaction });
      for (let from = 1; from <= POSITIONS; from += 500) {
        const values = [];
        for (let n = from; n < Math.min(from + 500, POSITIONS + 1); n++) values.push(`(${n})`);
        await sequelize.query(`INSERT INTO user_search_positions (n) VALUES ${values.join(',')}`, { transaction });
      }
      await sequelize.query(sql.backfill, { transaction });
      for (const statement of sql.triggers) await sequelize.query(statement, { transaction });
    });
  },

  async down(queryInterface) {
    const { sequelize } = queryInterface;
    for (const suffix of ['insert', 'update', 'delete']) await sequelize.query(`DROP TRIGGER IF EXISTS ${PREFIX}_${suffix}`);
    await queryInterface.dropTable('user_search_grams');
    await queryInterface.dropTable('user_search_positions');
  },
};
