'use strict';

// The dashboard's user figures without counting the users table (issue 46): at a million users,
// `COUNT(*) … GROUP BY role` reads a million index entries and the new users of 30 days as many as signed up
// in them. `user_role_counts` holds the users of each role and `user_signups` the users created in each
// epoch hour (still present: a deleted user leaves the hour it signed up in, as the count over the table did),
// so the dashboard reads four rows and at most 720.
//
// Database triggers keep both, as they keep the search trigrams (20261126600000): whatever writes a user (the
// service, sequelize-cli seeders, an operator's SQL) moves the counts in the same statement and transaction.
// A sign-in's update of other columns moves nothing. On MariaDB a change moves its two rows in key order (one
// INSERT … SELECT … ORDER BY), so two opposite role changes at once wait for each other instead of deadlocking.
// The hour is plain date arithmetic on the stored UTC time (no session time zone on MariaDB; SQLite's
// strftime reads the `+00:00` the models write). The same MariaDB privilege note as the trigram triggers holds.
const PREFIX = 'user_counts';

function dialectSql(dialect) {
  if (dialect === 'mysql') {
    const hour = (row) => `TIMESTAMPDIFF(HOUR, '1970-01-01 00:00:00', ${row}.created_at)`;
    // One statement per table for a change: the old key -1 and the new +1, ordered by key.
    const move = (table, key, oldValue, newValue) =>
      `INSERT INTO ${table} (${key}, total) SELECT k, d FROM (SELECT ${oldValue} AS k, -1 AS d UNION ALL SELECT ${newValue}, 1) AS m ORDER BY k
         ON DUPLICATE KEY UPDATE total = total + VALUES(total)`;
    const add = (row, delta) =>
      ['role', 'hour'].map((key) => `INSERT INTO ${key === 'role' ? 'user_role_counts' : 'user_signups'} (${key}, total) VALUES (${key === 'role' ? `${row}.role` : hour(row)}, ${delta})
         ON DUPLICATE KEY UPDATE total = total + VALUES(total)`);
    return {
      tables: [
        'CREATE TABLE user_role_counts (role VARCHAR(32) NOT NULL PRIMARY KEY, total INT NOT NULL)',
        'CREATE TABLE user_signups (hour INT NOT NULL PRIMARY KEY, total INT NOT NULL)',
      ],
      backfill: [
        'INSERT INTO user_role_counts (role, total) SELECT role, COUNT(*) FROM users GROUP BY role',
        `INSERT INTO user_signups (hour, total) SELECT ${hour('users')}, COUNT(*) FROM users GROUP BY 1`,
      ],
      triggers: [
        `CREATE TRIGGER ${PREFIX}_insert AFTER INSERT ON users FOR EACH ROW BEGIN ${add('NEW', 1).join('; ')}; END`,
        `CREATE TRIGGER ${PREFIX}_update AFTER UPDATE ON users FOR EACH ROW BEGIN
           IF NOT (NEW.role <=> OLD.role) THEN ${move('user_role_counts', 'role', 'OLD.role', 'NEW.role')}; END IF;
           IF NOT (NEW.created_at <=> OLD.created_at) THEN ${move('user_signups', 'hour', hour('OLD'), hour('NEW'))}; END IF;
         END`,
        `CREATE TRIGGER ${PREFIX}_delete AFTER DELETE ON users FOR EACH ROW BEGIN ${add('OLD', -1).join('; ')}; END`,
      ],
    };
  }
  const hour = (row) => `CAST(strftime('%s', ${row}.created_at) AS INTEGER) / 3600`;
  // SQLite runs one writer at a time, so the order of the two rows does not matter here.
  const upsert = (table, key, value, delta) =>
    `INSERT INTO ${table} (${key}, total) VALUES (${value}, ${delta}) ON CONFLICT (${key}) DO UPDATE SET total = total + excluded.total`;
  const both = (row, delta) => `${upsert('user_role_counts', 'role', `${row}.role`, delta)}; ${upsert('user_signups', 'hour', hour(row), delta)};`;
  return {
    tables: [
      'CREATE TABLE user_role_counts (role VARCHAR(32) NOT NULL PRIMARY KEY, total INTEGER NOT NULL) WITHOUT ROWID',
      'CREATE TABLE user_signups (hour INTEGER NOT NULL PRIMARY KEY, total INTEGER NOT NULL)',
    ],
    backfill: [
      'INSERT INTO user_role_counts (role, total) SELECT role, COUNT(*) FROM users GROUP BY role',
      `INSERT INTO user_signups (hour, total) SELECT ${hour('users')}, COUNT(*) FROM users GROUP BY 1`,
    ],
    triggers: [
      `CREATE TRIGGER ${PREFIX}_insert AFTER INSERT ON users BEGIN ${both('NEW', 1)} END`,
      `CREATE TRIGGER ${PREFIX}_update AFTER UPDATE OF role, created_at ON users
         WHEN NEW.role IS NOT OLD.role OR NEW.created_at IS NOT OLD.created_at BEGIN ${both('OLD', -1)} ${both('NEW', 1)} END`,
      `CREATE TRIGGER ${PREFIX}_delete AFTER DELETE ON users BEGIN ${both('OLD', -1)} END`,
    ],
  };
}

module.exports = {
  async up(queryInterface) {
    const { sequelize } = queryInterface;
    const sql = dialectSql(sequelize.getDialect());
    await sequelize.transaction(async (transaction) => {
      for (const statement of [...sql.tables, ...sql.backfill, ...sql.triggers]) await sequelize.query(statement, { transaction });
    });
  },

  async down(queryInterface) {
    const { sequelize } = queryInterface;
    for (const kind of ['insert', 'update', 'delete']) await sequelize.query(`DROP TRIGGER IF EXISTS ${PREFIX}_${kind}`);
    await queryInterface.dropTable('user_signups');
    await queryInterface.dropTable('user_role_counts');
  },
};
