import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import pino from 'pino';
import { startService, type ServiceProcess } from '../support/service-process';
import { call, scratchDatabase, type ScratchDatabase } from '../support/processes';
import { createSequelize } from '../../src/db/sequelize';

const MIGRATIONS = fs.readdirSync(path.resolve(__dirname, '../../migrations')).filter((name) => name.endsWith('.js'));
const INSTANCES = 4;

describe('Migrations under a lock: instances started together on an empty database', function () {
  this.timeout(180_000);
  let db: ScratchDatabase | undefined;
  let services: ServiceProcess[] = [];

  afterEach(async () => {
    await Promise.all(services.map((service) => service.stop()));
    services = [];
    await db?.drop();
    db = undefined;
  });

  it(`when ${INSTANCES} processes start at once, then each migration is applied once and every one comes up`, async () => {
    db = await scratchDatabase('migrate_lock');
    const started = await Promise.allSettled(Array.from({ length: INSTANCES }, () => startService({ DATABASE_URL: db!.url }, 150_000)));
    services = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failures = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    assert.deepEqual(failures, [], 'every instance started');

    // umzug logs one `migrated` line per migration it applied: across all instances, each file exactly once.
    const applied = services.flatMap((service) => service.logs.filter((line) => line.event === 'migrated').map((line) => String(line.name)));
    assert.deepEqual([...applied].sort(), [...MIGRATIONS].sort(), 'each migration applied by exactly one instance');
    const waited = services.filter((service) => service.logs.some((line) => line.event === 'migrated')).length;
    assert.equal(waited, 1, 'one instance migrated, the others found the ledger current once they held the lock');

    const sequelize = createSequelize(db.url, pino({ level: 'silent' }));
    try {
      const ledger = await sequelize.query<{ name: string }>('SELECT name FROM SequelizeMeta', { type: QueryTypes.SELECT });
      assert.deepEqual(ledger.map((row) => row.name).sort(), [...MIGRATIONS].sort());
    } finally {
      await sequelize.close();
    }
    for (const service of services) assert.equal((await call(service.baseUrl, 'GET', '/health/ready')).status, 200);
  });
});
