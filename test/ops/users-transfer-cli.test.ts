import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { ctx, uniqueEmail } from '../support/context';
import { PASSWORD } from '../support/auth';
import { foreignHashesOf } from '../support/foreign-hashes';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database';
import { createSequelize } from '../../src/db/sequelize';
import { defineModels } from '../../src/models';
import { createPasswordService } from '../../src/credentials/password.service';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');

/**
 * `npm run users:import` and `users:export` as operators run them: scripts/users-transfer.js over a build of the
 * service (made here into a directory of the test's own, so dist/ is left alone), against a scratch database.
 */
describe('users:import and users:export (the command line)', function () {
  this.timeout(300_000);
  let dir: string;
  let database: ScratchDatabase;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'users-cli-'));
    await run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', path.join(dir, 'dist'), '--incremental', 'false', '--tsBuildInfoFile', 'null'], { cwd: ROOT });
    fs.mkdirSync(path.join(dir, 'scripts'));
    for (const script of ['users-transfer.js', 'built-service.js']) fs.copyFileSync(path.join(ROOT, 'scripts', script), path.join(dir, 'scripts', script));
    for (const shared of ['node_modules', 'migrations', 'views']) fs.symlinkSync(path.join(ROOT, shared), path.join(dir, shared));
    database = await createScratchDatabase('cli');
  });
  after(async () => {
    await database?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const cli = (args: string[]) =>
    run(process.execPath, [path.join(dir, 'scripts', 'users-transfer.js'), ...args], {
      env: { PATH: process.env.PATH, ...ctx().env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      (done) => ({ code: 0, ...done }),
      (failed: { code: number; stdout: string; stderr: string }) => failed,
    );

  it('when a file is imported, exported and imported again with --mode upsert, then the summary is the API one and the users sign in with their passwords', async () => {
    const hashes = await foreignHashesOf(PASSWORD);
    const records = Object.values(hashes).map((passwordHash) => ({ email: uniqueEmail('cli'), passwordHash }));
    const file = path.join(dir, 'users.ndjson');
    fs.writeFileSync(file, `${records.map((record) => JSON.stringify(record)).join('\n')}\n{"email": "broken\n`);

    const first = await cli(['import', file]);
    assert.equal(first.code, 1, 'a failed record makes the exit code 1');
    assert.deepEqual(JSON.parse(first.stdout), { created: records.length, updated: 0, skipped: 0, failed: 1, errors: [{ line: records.length + 1, email: null, error: 'not valid JSON' }] });

    const exported = path.join(dir, 'export.ndjson');
    const out = await cli(['export', exported]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(fs.statSync(exported).mode & 0o777, 0o600, 'the file of hashes is its owner’s alone');
    const lines = fs.readFileSync(exported, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { email: string; passwordHash: string; role: string });
    assert.deepEqual(new Set(lines.map((line) => line.email)), new Set(records.map((record) => record.email)));
    assert.ok(lines.every((line) => line.role === 'viewer'), 'no record became the bootstrap admin by coming first');

    const again = await cli(['import', exported, '--mode', 'upsert']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), { created: 0, updated: records.length, skipped: 0, failed: 0, errors: [] });

    // The rows as a sign-in reads them: each stored hash checks the password.
    const sequelize = createSequelize(database.url, pino({ level: 'silent' }));
    try {
      const users = await defineModels(sequelize).User.findAll();
      const passwords = createPasswordService({ iterations: ctx().config.passwordIterations });
      for (const user of users) assert.equal((await passwords.verify(PASSWORD, user.passwordHash)).ok, true, user.email);
    } finally {
      await sequelize.close();
    }
    assert.equal((await cli(['import', file, '--mode', 'merge'])).code, 1);
  });
});
