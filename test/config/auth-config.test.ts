import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadProfileDefinition } from '../../src/config/auth-config';
import { ConfigError } from '../../src/config/config';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

function writeConfig(name: string, content: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-profile-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

describe('AUTH_CONFIG at boot', () => {
  it('when the file is a valid JSON definition, then its fields are loaded', () => {
    const file = writeConfig('auth.json', JSON.stringify({ userProfile: { fields: [{ name: 'plan', type: 'select', options: ['free', 'pro'], default: 'free' }], registrationFields: ['plan'] } }));
    const definition = loadProfileDefinition(file);
    assert.deepEqual(definition.fields.map((field) => field.name), ['plan']);
    assert.deepEqual(definition.registrationFields, ['plan']);
  });

  it('when a .js file uses defineUserProfile from the package entry, then it loads', () => {
    const entry = path.join(ROOT, 'src/index.ts').replace(/\\/g, '/');
    const file = writeConfig('auth.js', `const { defineUserProfile } = require(${JSON.stringify(entry)});
module.exports = { userProfile: defineUserProfile({ fields: [{ name: 'team', type: 'string', required: true }] }) };`);
    assert.deepEqual(loadProfileDefinition(file).fields.map((field) => field.name), ['team']);
  });

  it('when the definition is broken, then loading fails with a message naming the field', () => {
    const cases: Array<[object, RegExp]> = [
      [{ fields: [{ name: 'plan', type: 'colour' }] }, /plan/],
      [{ fields: [{ name: 'plan', type: 'select' }] }, /plan.*options/],
      [{ fields: [{ name: 'code', type: 'string', validation: { pattern: '([a-z' } }] }, /code/],
      [{ fields: [{ name: 'plan', type: 'string' }], registrationFields: ['nope'] }, /nope/],
    ];
    for (const [userProfile, expected] of cases) {
      const file = writeConfig('auth.json', JSON.stringify({ userProfile }));
      assert.throws(() => loadProfileDefinition(file), (err: unknown) => err instanceof ConfigError && expected.test(err.message));
    }
  });

  it('when the service starts with a broken definition, then it exits 1 with one line naming the field', async () => {
    const file = writeConfig('auth.json', JSON.stringify({ userProfile: { fields: [{ name: 'tier', type: 'select', options: [] }] } }));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-boot-'));
    const result = await run(process.execPath, ['-r', 'tsx/cjs', path.join(ROOT, 'src/server.ts')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, AUTH_CONFIG: file, DATA_DIR: dataDir, DATABASE_URL: `sqlite:${path.join(dataDir, 'db.sqlite')}`, PORT: '0' },
      timeout: 30_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    assert.equal(result.code, 1);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0], /AUTH_CONFIG.*tier/);
  });
});
