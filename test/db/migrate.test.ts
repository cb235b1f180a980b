import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import pino from 'pino';
import { createSequelize } from '../../src/db/sequelize';
import { createMigrator } from '../../src/db/migrate';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const EXPECTED_TABLES = [
  'activity_logs',
  'auth_verification',
  'collections',
  'content',
  'oauth_accounts',
  'otp_codes',
  'password_reset_tokens',
  'plugins',
  'revoked_tokens',
  'settings',
  'user_profiles',
  'users',
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
});
