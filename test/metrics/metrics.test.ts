import assert from 'node:assert/strict';
import express from 'express';
import request from 'supertest';
import pino from 'pino';
import { DatabaseError } from 'sequelize';
import { createMetrics } from '../../src/metrics/metrics';
import { createErrorHandler } from '../../src/http/error-handler';
import { createSequelize } from '../../src/db/sequelize';
import { RedisStore } from '../../src/store/redis-store';
import { closedPort } from '../support/ports';

/** One unlabelled-or-labelled sample's value from the registry's text (0 when absent). */
async function valueOf(metrics: ReturnType<typeof createMetrics>, name: string, labels: string): Promise<number> {
  const text = await metrics.registry.metrics();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{${labels}} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('metrics (src/metrics/metrics.ts)', () => {
  it('when the key-value store cannot be reached, then its failed calls are counted as store errors', async () => {
    const store = new RedisStore(`redis://127.0.0.1:${await closedPort()}`, { keyPrefix: 'metrics-test:' });
    const metrics = createMetrics({ store });
    try {
      assert.equal(await valueOf(metrics, 'store_errors_total', 'kind="unavailable"'), 0);
      await assert.rejects(store.get('a'));
      await assert.rejects(store.set('b', '1'));
      assert.equal(await valueOf(metrics, 'store_errors_total', 'kind="unavailable"'), 2);
      // A second scrape reports the same total: increments since the last one, not the total again.
      assert.equal(await valueOf(metrics, 'store_errors_total', 'kind="unavailable"'), 2);
    } finally {
      await store.close();
    }
  });

  it('when a request fails on an unreachable database or on contention past the retries, then 503 and a database error by kind', async () => {
    const metrics = createMetrics();
    const unreachable = createSequelize(`mysql://root@127.0.0.1:${await closedPort()}/none`, pino({ level: 'silent' }));
    const app = express();
    app.get('/unreachable', async () => {
      await unreachable.query('SELECT 1');
    });
    app.get('/deadlock', () => {
      throw new DatabaseError(Object.assign(new Error('Deadlock found when trying to get lock'), { errno: 1213, sql: 'UPDATE …' }));
    });
    app.get('/other', () => {
      throw new Error('not the database');
    });
    app.use(createErrorHandler((kind) => metrics.databaseError(kind)));
    try {
      assert.equal((await request(app).get('/unreachable')).status, 503);
      assert.equal((await request(app).get('/deadlock')).status, 503);
      assert.equal((await request(app).get('/other')).status, 500);
      assert.equal(await valueOf(metrics, 'database_errors_total', 'kind="unavailable"'), 1);
      assert.equal(await valueOf(metrics, 'database_errors_total', 'kind="contention"'), 1);
    } finally {
      await unreachable.close();
    }
  });
});
