import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, ConfigError } from '../../src/config/config';
import { parseDurationSeconds } from '../../src/config/duration';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'auth-config-'));
}

describe('configuration', () => {
  it('when nothing is set, then the documented defaults apply', () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    assert.equal(config.port, 3000);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.baseUrl, 'http://localhost:3000');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.jwtExpiresIn, undefined);
    assert.equal(config.jwtRefreshGraceSeconds, undefined);
    assert.equal(config.passwordIterations, 100_000);
    assert.equal(config.trustProxy, false);
  });

  it('when a value is malformed, then one line names the variable', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ PORT: 'eighty' }, 'PORT'],
      [{ DATABASE_URL: 'postgres://x' }, 'DATABASE_URL'],
      [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
      [{ JWT_EXPIRES_IN: 'forever' }, 'JWT_EXPIRES_IN'],
      [{ JWT_EXPIRES_IN: '0' }, 'JWT_EXPIRES_IN'],
      [{ JWT_EXPIRES_IN: '9999999999d' }, 'JWT_EXPIRES_IN'],
      [{ JWT_EXPIRES_IN: '366d' }, 'JWT_EXPIRES_IN'],
      [{ JWT_REFRESH_GRACE_SECONDS: '9999999999' }, 'JWT_REFRESH_GRACE_SECONDS'],
      [{ TRUST_PROXY: 'garbage' }, 'TRUST_PROXY'],
      [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
      [{ JWT_REFRESH_GRACE_SECONDS: '-1' }, 'JWT_REFRESH_GRACE_SECONDS'],
      [{ EXTERNAL_AUTH_SECRET: 'short' }, 'EXTERNAL_AUTH_SECRET'],
      [{ BASE_URL: 'not a url' }, 'BASE_URL'],
      [{ ADMIN_EMAIL: 'nobody' }, 'ADMIN_EMAIL'],
      [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
      [{ PASSWORD_PBKDF2_ITERATIONS: '10' }, 'PASSWORD_PBKDF2_ITERATIONS'],
    ];
    for (const [env, name] of cases) {
      assert.throws(
        () => loadConfig({ DATA_DIR: tempDir(), ...env }),
        (err: unknown) => err instanceof ConfigError && err.message.includes(name) && !err.message.includes('\n'),
        name,
      );
    }
  });

  it('when production has no JWT_SECRET or a short one, then the boot is refused', () => {
    assert.throws(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir() }), /JWT_SECRET is required/);
    assert.throws(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(31), DATA_DIR: tempDir() }), /at least 32/);
    assert.equal(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).jwtSecret, 'x'.repeat(32));
  });

  it('when no secret is set outside production, then one is generated once, kept with mode 0600 and reused', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    assert.equal(first.jwtSecret, second.jwtSecret);
    assert.ok(first.jwtSecret.length >= 32);
    assert.equal(fs.statSync(path.join(dir, 'jwt-secret')).mode & 0o777, 0o600);
    assert.equal(first.warnings.length, 1);
    assert.equal(second.warnings.length, 0);
    assert.notEqual(loadConfig({ DATA_DIR: tempDir() }).jwtSecret, first.jwtSecret);
  });

  it('when token settings are given, then they are parsed to seconds and a grace of 0 is kept', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), JWT_EXPIRES_IN: '12h', JWT_REFRESH_GRACE_SECONDS: '0' });
    assert.deepEqual(config.jwtExpiresIn, { value: '12h', seconds: 43_200 });
    assert.equal(config.jwtRefreshGraceSeconds, 0);
  });

  it('when TRUST_PROXY is set, then it becomes an Express trust proxy value', () => {
    assert.equal(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: 'true' }).trustProxy, true);
    assert.equal(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: '1' }).trustProxy, 1);
    assert.equal(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: 'loopback' }).trustProxy, 'loopback');
    assert.equal(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::1' }).trustProxy, 'loopback, 10.0.0.0/8, fd00::1');
  });

  it('when PORT is empty, then it is unset like every other variable: the default port', () => {
    assert.equal(loadConfig({ DATA_DIR: tempDir(), PORT: '' }).port, 3000);
  });
});

describe('duration parsing', () => {
  it('when given the forms of SPEC 2.7, then whole seconds come back', () => {
    assert.equal(parseDurationSeconds('30d'), 2_592_000);
    assert.equal(parseDurationSeconds('12h'), 43_200);
    assert.equal(parseDurationSeconds('3600s'), 3600);
    assert.equal(parseDurationSeconds('15m'), 900);
    assert.equal(parseDurationSeconds('3600'), 3600);
    assert.equal(parseDurationSeconds(0), 0);
  });

  it('when malformed, then null', () => {
    for (const bad of ['', '1y', '-5', '1.5h', 'abc', '10 days']) assert.equal(parseDurationSeconds(bad), null, bad);
  });
});
