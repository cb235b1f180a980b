import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import pino from 'pino';
import { QueryTypes, type Sequelize } from 'sequelize';
import { createSequelize } from '../../src/db/sequelize';
import { createMigrator } from '../../src/db/migrate';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const EXPECTED_TABLES = [
  'activity_logs',
  'activity_rollups',
  'api_keys',
  'auth_verification',
  'collections',
  'content',
  'email_tokens',
  'oauth_accounts',
  'oauth_clients',
  'oauth_consents',
  'oidc_grants',
  'oidc_payloads',
  'otp_codes',
  'outbox',
  'passkeys',
  'password_reset_tokens',
  'plugins',
  'recovery_codes',
  'revoked_tokens',
  'sessions',
  'settings',
  'signing_keys',
  'sso_domains',
  'sso_providers',
  'two_factor',
  'user_profiles',
  'user_role_counts',
  'user_search_grams',
  'user_search_positions',
  'user_signups',
  'users',
  'webhook_endpoints',
];

/** A database of its own, so going down and up never disturbs the suite's shared one. */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (base && /^(mysql|mariadb):/.test(base)) {
    const server = new URL(base);
    const name = `auth_migrate_${crypto.randomBytes(4).toString('hex')}`;
    const connection = await mysql.createConnection({ host: server.hostname, port: Number(server.port || 3306), user: decodeURIComponent(server.username), password: decodeURIComponent(server.password) });
    await connection.query(`CREATE DATABASE \`${name}\``);
    server.pathname = `/${name}`;
    return {
      url: server.toString(),
      drop: async () => {
        await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await connection.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-migrate-'));
  return { url: `sqlite:${path.join(dir, 'db.sqlite')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

async function tables(url: string): Promise<string[]> {
  const sequelize = createSequelize(url, pino({ level: 'silent' }));
  const names = (await sequelize.getQueryInterface().showAllTables()) as string[];
  await sequelize.close();
  return names.filter((name) => name !== 'SequelizeMeta').sort();
}

const EXACT_EMAILS = '20261126000500-binary-email-columns.js';
const EMAIL_COLUMNS = [['users', 'email'], ['otp_codes', 'user_email'], ['auth_verification', 'identifier']] as const;

/** How the database describes the email columns' tables (MySQL: SHOW CREATE TABLE; SQLite: the stored DDL). */
async function emailTablesSchema(sequelize: Sequelize): Promise<string[]> {
  const out: string[] = [];
  for (const [table] of EMAIL_COLUMNS) {
    const sql = sequelize.getDialect() === 'mysql' ? `SHOW CREATE TABLE ${table}` : `SELECT sql FROM sqlite_master WHERE tbl_name = '${table}' ORDER BY name`;
    const [rows] = await sequelize.query(sql);
    out.push(JSON.stringify(rows));
  }
  return out;
}

/** The collation of each email column (MySQL), or null on SQLite (whose `=` is always exact). */
async function emailCollations(sequelize: Sequelize): Promise<Array<string | null>> {
  if (sequelize.getDialect() !== 'mysql') return EMAIL_COLUMNS.map(() => null);
  const out: Array<string | null> = [];
  for (const [table, column] of EMAIL_COLUMNS) {
    const [rows] = await sequelize.query(
      'SELECT COLLATION_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?',
      { replacements: [table, column] },
    );
    out.push((rows as Array<{ c: string }>)[0].c);
  }
  return out;
}

async function insertUser(sequelize: Sequelize, email: string): Promise<void> {
  const now = new Date();
  await sequelize.getQueryInterface().bulkInsert('users', [
    { id: crypto.randomUUID(), email, username: `u_${crypto.randomBytes(5).toString('hex')}`, role: 'viewer', active: true, token_epoch: 0, created_at: now, updated_at: now },
  ]);
}

const EXACT_PROVIDER_IDS = '20261128000200-binary-provider-account-id.js';

/** A provider account row (and the user it belongs to) as the service would write it. */
async function insertProviderAccount(sequelize: Sequelize, providerAccountId: string): Promise<void> {
  const email = `${crypto.randomBytes(5).toString('hex')}@example.com`;
  await insertUser(sequelize, email);
  const [[user]] = (await sequelize.query('SELECT id FROM users WHERE email = ?', { replacements: [email] })) as [Array<{ id: string }>, unknown];
  const now = new Date();
  await sequelize.getQueryInterface().bulkInsert('oauth_accounts', [
    { id: crypto.randomUUID(), user_id: user.id, provider: 'github', provider_account_id: providerAccountId, email, created_at: now, updated_at: now },
  ]);
}

/** oauth_accounts as the database describes it (MySQL: SHOW CREATE TABLE; SQLite: the stored DDL). */
async function providerAccountsSchema(sequelize: Sequelize): Promise<string> {
  const sql = sequelize.getDialect() === 'mysql' ? 'SHOW CREATE TABLE oauth_accounts' : "SELECT sql FROM sqlite_master WHERE tbl_name = 'oauth_accounts' ORDER BY name";
  return JSON.stringify((await sequelize.query(sql))[0]);
}

function cli(args: string[], env: Record<string, string>) {
  return run(path.join(ROOT, 'node_modules/.bin/sequelize-cli'), args, { cwd: ROOT, env: { ...process.env, ...env } });
}

describe('migrations', function () {
  this.timeout(120_000);
  let db: { url: string; drop: () => Promise<void> };
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    await db.drop();
  });

  it('when applied by the service, then every table exists, and going down removes them all', async () => {
    const sequelize = createSequelize(db.url, pino({ level: 'silent' }));
    const migrator = createMigrator(sequelize);
    await migrator.up();
    await sequelize.close();
    assert.deepEqual(await tables(db.url), EXPECTED_TABLES);

    const again = createSequelize(db.url, pino({ level: 'silent' }));
    await createMigrator(again).down({ to: 0 });
    await again.close();
    assert.deepEqual(await tables(db.url), []);
  });

  it('when run through sequelize-cli, then migrate, seed (twice), undo all and migrate again work', async () => {
    const env = { DATABASE_URL: db.url, ADMIN_EMAIL: 'Root@Example.test', ADMIN_PASSWORD: 'seeded-password-1', PASSWORD_PBKDF2_ITERATIONS: '10000' };
    await cli(['db:migrate'], env);
    assert.deepEqual(await tables(db.url), EXPECTED_TABLES);
    await cli(['db:seed:all'], env);
    await cli(['db:seed:all'], env);

    const sequelize = createSequelize(db.url, pino({ level: 'silent' }));
    const [users] = await sequelize.query('SELECT email, role, password_hash FROM users');
    const [plugins] = await sequelize.query('SELECT name, active FROM plugins ORDER BY name');
    const [profiles] = await sequelize.query('SELECT user_id FROM user_profiles');
    await sequelize.close();
    assert.equal(users.length, 1, 'the admin seeder is idempotent');
    const admin = users[0] as { email: string; role: string; password_hash: string };
    assert.equal(admin.email, 'root@example.test');
    assert.equal(admin.role, 'admin');
    assert.match(admin.password_hash, /^pbkdf2:10000:[0-9a-f]{32}:[0-9a-f]{64}$/);
    assert.equal(profiles.length, 1);
    assert.deepEqual((plugins as Array<{ name: string }>).map((p) => p.name), ['email', 'oauth-providers', 'otp-login']);

    // A short local part still gives a username of at least three characters, as registration does.
    await cli(['db:seed', '--seed', '20261122000200-admin-user.js'], { ...env, ADMIN_EMAIL: 'ab@example.test' });
    const check = createSequelize(db.url, pino({ level: 'silent' }));
    const [short] = await check.query("SELECT username FROM users WHERE email = 'ab@example.test'");
    await check.close();
    assert.deepEqual(short, [{ username: 'ab_user' }]);
    // An address the service could never sign in stops the seeder; an existing one is reported, left as it is.
    await assert.rejects(cli(['db:seed', '--seed', '20261122000200-admin-user.js'], { ...env, ADMIN_EMAIL: 'admin' }), /ADMIN_EMAIL must be an email address/);
    const again = await cli(['db:seed', '--seed', '20261122000200-admin-user.js'], env);
    assert.match(again.stdout, /root@example\.test already exists \(role admin\): left unchanged/);

    await cli(['db:migrate:undo:all'], env);
    assert.deepEqual(await tables(db.url), []);
    await cli(['db:migrate'], env);
    assert.deepEqual(await tables(db.url), EXPECTED_TABLES);
  });
  it('when the trigram migration runs on existing users, then they are indexed, later writes are indexed by its triggers, and down removes both', async () => {
    const TRIGRAMS = '20261126600000-user-search-trigrams.js';
    const sequelize = createSequelize(db.url, pino({ level: 'silent' }));
    try {
      const migrator = createMigrator(sequelize);
      await migrator.up({ to: '20261126500000-create-passkeys.js' });
      await insertUser(sequelize, 'before@example.test');
      await migrator.up({ to: TRIGRAMS });
      await insertUser(sequelize, 'after@example.test');
      const grams = async (email: string) =>
        (await sequelize.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM user_search_grams g JOIN users u ON u.id = g.user_id WHERE u.email = ?', { replacements: [email], type: QueryTypes.SELECT }))[0].n;
      // "before@example.test", a separator and a username of 12 characters: over 20 distinct trigrams each.
      assert.ok(Number(await grams('before@example.test')) > 20, 'backfilled');
      assert.ok(Number(await grams('after@example.test')) > 20, 'kept by the insert trigger');
      await migrator.down({ to: TRIGRAMS });
      await insertUser(sequelize, 'later@example.test');
      assert.ok(!(await tables(db.url)).includes('user_search_grams'));
    } finally {
      await sequelize.close();
    }
  });

  it('when the exact-email migration runs, then rows keep their (normalised) addresses, look-alikes and other case find nothing, the address stays unique, and down restores the columns', async () => {
    const sequelize = createSequelize(db.url, pino({ level: 'silent' }));
    try {
      const migrator = createMigrator(sequelize);
      const names = (await migrator.pending()).map((migration) => migration.name);
      await migrator.up({ to: names[names.indexOf(EXACT_EMAILS) - 1] });
      const mysqlDb = sequelize.getDialect() === 'mysql';
      const schemaBefore = await emailTablesSchema(sequelize);
      const collationsBefore = await emailCollations(sequelize);
      // Rows as an older writer (a hand-made insert, a seeder) may have left them on MariaDB; SQLite's are
      // left as they are (no-op there), so they are written in the normal form.
      const stored = mysqlDb ? ' Admin@Example.COM' : 'admin@example.com';
      await insertUser(sequelize, stored);
      const now = new Date();
      await sequelize.getQueryInterface().bulkInsert('otp_codes', [{ id: crypto.randomUUID(), user_email: stored, code: 'h', expires_at: 1, attempts: 0, created_at: 1 }]);
      await sequelize.getQueryInterface().bulkInsert('auth_verification', [
        { id: crypto.randomUUID(), identifier: stored, value: crypto.randomUUID(), user_epoch: 0, expires_at: now, created_at: now, updated_at: now },
      ]);

      await migrator.up({ to: EXACT_EMAILS });
      for (const [table, column] of EMAIL_COLUMNS) {
        const [rows] = await sequelize.query(`SELECT ${column} AS v FROM ${table}`);
        assert.deepEqual(rows, [{ v: 'admin@example.com' }], `${table}.${column} keeps its row in the normal form`);
        for (const other of ['admin@exämple.com', 'ａdmin@example.com', 'аdmin@example.com', 'ADMIN@example.com', 'admin@example.com.']) {
          const [found] = await sequelize.query(`SELECT ${column} FROM ${table} WHERE ${column} = ?`, { replacements: [other] });
          assert.deepEqual(found, [], `${table}.${column} = ${other} finds nothing`);
        }
      }
      assert.deepEqual(await emailCollations(sequelize), mysqlDb ? ['utf8mb4_bin', 'utf8mb4_bin', 'utf8mb4_bin'] : [null, null, null]);
      // Still unique, and a look-alike is a different address (under the old collation it was a "duplicate").
      await assert.rejects(insertUser(sequelize, 'admin@example.com'), /Validation error|Duplicate|UNIQUE/i);
      await insertUser(sequelize, 'admin@exämple.com');

      await sequelize.query("DELETE FROM users WHERE email = 'admin@exämple.com'");
      await migrator.down({ to: EXACT_EMAILS });
      assert.deepEqual(await emailTablesSchema(sequelize), schemaBefore, 'down restores the tables exactly');
      assert.deepEqual(await emailCollations(sequelize), collationsBefore);
      const [kept] = await sequelize.query('SELECT email FROM users');
      assert.deepEqual(kept, [{ email: 'admin@example.com' }], 'down keeps the rows');
    } finally {
      await sequelize.close();
    }
  });

  it('when the exact provider-id migration runs, then ids differing only in case are two accounts that never match each other, and down restores the column', async () => {
    const sequelize = createSequelize(db.url, pino({ level: 'silent' }));
    try {
      const migrator = createMigrator(sequelize);
      const names = (await migrator.pending()).map((migration) => migration.name);
      await migrator.up({ to: names[names.indexOf(EXACT_PROVIDER_IDS) - 1] });
      const schemaBefore = await providerAccountsSchema(sequelize);
      await insertProviderAccount(sequelize, 'AbCdEf');

      await migrator.up({ to: EXACT_PROVIDER_IDS });
      await insertProviderAccount(sequelize, 'abcdef');
      const match = async (id: string) =>
        (await sequelize.query("SELECT provider_account_id AS id FROM oauth_accounts WHERE provider = 'github' AND provider_account_id = ?", { replacements: [id] }))[0];
      assert.deepEqual(await match('AbCdEf'), [{ id: 'AbCdEf' }]);
      assert.deepEqual(await match('abcdef'), [{ id: 'abcdef' }]);
      assert.deepEqual(await match('ABCDEF'), []);
      await assert.rejects(insertProviderAccount(sequelize, 'abcdef'), /Validation error|Duplicate|UNIQUE/i, 'still unique');

      await sequelize.query("DELETE FROM oauth_accounts WHERE provider_account_id = 'abcdef'");
      await migrator.down({ to: EXACT_PROVIDER_IDS });
      assert.equal(await providerAccountsSchema(sequelize), schemaBefore, 'down restores the table exactly');
    } finally {
      await sequelize.close();
    }
  });

  it('when the user-count migration runs on existing users, then it counts them, its triggers keep counting, and down removes both', async () => {
    const USER_COUNTS = '20261128003000-create-user-counts.js';
    const sequelize = createSequelize(db.url, pino({ level: 'silent' }));
    try {
      const migrator = createMigrator(sequelize);
      const names = (await migrator.pending()).map((migration) => migration.name);
      await migrator.up({ to: names[names.indexOf(USER_COUNTS) - 1] });
      const [[{ n: present }]] = (await sequelize.query('SELECT COUNT(*) AS n FROM users')) as [Array<{ n: number | string }>, unknown];
      await insertUser(sequelize, 'counted-before@example.test');
      await migrator.up({ to: USER_COUNTS });
      const viewers = async () =>
        Number((await sequelize.query<{ total: number | string }>("SELECT total FROM user_role_counts WHERE role = 'viewer'", { type: QueryTypes.SELECT }))[0]?.total ?? 0);
      const signedUp = async () => Number((await sequelize.query<{ n: number | string }>('SELECT SUM(total) AS n FROM user_signups', { type: QueryTypes.SELECT }))[0].n);
      assert.equal(await viewers(), Number(present) + 1, 'backfilled');
      assert.equal(await signedUp(), Number(present) + 1, 'backfilled by hour');
      await insertUser(sequelize, 'counted-after@example.test');
      assert.equal(await viewers(), Number(present) + 2, 'kept by the insert trigger');
      await sequelize.query("DELETE FROM users WHERE email = 'counted-after@example.test'");
      assert.equal(await signedUp(), Number(present) + 1, 'kept by the delete trigger');
      await migrator.down({ to: USER_COUNTS });
      await insertUser(sequelize, 'counted-later@example.test');
      const left = await tables(db.url);
      assert.ok(!left.includes('user_role_counts') && !left.includes('user_signups'));
    } finally {
      await sequelize.close();
    }
  });
});
