import assert from 'node:assert/strict';
import { Op } from 'sequelize';
import { ctx } from '../../support/context';
import { createOutbox, newOutboxId } from '../../../src/services/operations/outbox';

/**
 * The worker's claim against the producers' inserts (CONTRACT 16, issue 51). On MariaDB the claim locks the rows
 * it takes (FOR UPDATE SKIP LOCKED); a request that fires an event inserts an outbox row in its own transaction at
 * the same moment, and must not wait for the claim: at 1,000 events a second the wait (or a deadlock) would be
 * the request's.
 */
describe('outbox worker (CONTRACT 16): producers never wait for a claim, rows from elsewhere are seen soon', function () {
  this.timeout(30_000);
  const KIND = 'mail' as const;
  const EVENT = 'outbox-claim.test';

  afterEach(async () => {
    await ctx().models.OutboxEntry.destroy({ where: { eventType: EVENT } });
  });

  it('when a worker is in the middle of a claim, then a row a request inserts meanwhile commits at once (MariaDB: no gap lock)', async function () {
    const { sequelize, models, logger, dialect } = ctx();
    // SQLite has one writer by design: a claim there is one short write transaction, and others queue behind it.
    if (dialect !== 'mysql') this.skip();
    const outbox = createOutbox({ sequelize, models, logger });
    // Not attempted in this test: handled as "retry" so nothing is delivered, and a day away when the worker writes.
    outbox.handle(KIND, async () => ({ outcome: 'retry', error: 'not in this test' }));
    const now = new Date();
    await models.OutboxEntry.bulkCreate([1, 2, 3].map(() => ({ id: newOutboxId(), kind: KIND, eventType: EVENT, payload: '{}', nextAttemptAt: now })));

    let insertMs: number | undefined;
    let insert: Promise<unknown> | undefined;
    let armed = true;
    // Runs inside the claim's transaction, after its SELECT … FOR UPDATE and before its lease UPDATE and COMMIT.
    const duringClaim = async (): Promise<void> => {
      if (!armed) return;
      armed = false;
      const started = Date.now();
      insert = models.OutboxEntry.create({ id: newOutboxId(), kind: KIND, eventType: EVENT, payload: '{}', nextAttemptAt: new Date() });
      // Not awaited past this: an insert that waits for the claim would wait until the claim commits.
      await Promise.race([insert, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      insertMs = Date.now() - started;
    };
    models.OutboxEntry.addHook('afterFind', 'outbox-claim-test', duringClaim);
    try {
      await outbox.runOnce();
    } finally {
      models.OutboxEntry.removeHook('afterFind', 'outbox-claim-test');
      await insert;
    }
    assert.ok(insertMs !== undefined, 'the claim read rows');
    assert.ok(insertMs < 1_000, `the insert waited ${insertMs} ms for the claim`);
    assert.equal(await models.OutboxEntry.count({ where: { eventType: EVENT, attempts: { [Op.gt]: 0 } } }), 3, 'the three due rows were claimed and attempted');
  });

  it('when a worker has been idle a while and another instance commits a row, then the worker attempts it within about a second', async () => {
    const { sequelize, models, logger } = ctx();
    const outbox = createOutbox({ sequelize, models, logger });
    let attemptedAt: number | undefined;
    outbox.handle(KIND, async () => {
      attemptedAt ??= Date.now();
      return { outcome: 'delivered' };
    });
    outbox.start();
    try {
      // Idle long enough for the polls to have spaced out as far as they go.
      await new Promise((resolve) => setTimeout(resolve, 7_000));
      // Inserted as another instance's request would: no nudge reaches this worker.
      const committedAt = Date.now();
      await models.OutboxEntry.create({ id: newOutboxId(), kind: KIND, eventType: EVENT, payload: '{}', nextAttemptAt: new Date() });
      const deadline = Date.now() + 8_000;
      while (attemptedAt === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(attemptedAt !== undefined, 'attempted at all');
      assert.ok(attemptedAt - committedAt < 1_500, `attempted ${attemptedAt - committedAt} ms after the commit`);
    } finally {
      await outbox.stop();
    }
  });
});
