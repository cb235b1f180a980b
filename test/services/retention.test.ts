import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import pino from 'pino';
import { ctx, sqlSentDuring, uniqueEmail } from '../support/context';
import { makeUser } from '../support/auth';
import { createRetention, retentionRules, type RetentionOptions } from '../../src/services/operations/retention';

const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

function retention(options: Partial<RetentionOptions> & { days?: number } = {}) {
  const { models, store } = ctx();
  return createRetention({
    rules: retentionRules(models, { activityRetentionDays: options.days ?? 90 }),
    store,
    logger: pino({ level: 'silent' }),
    pauseMs: 0,
    ...options,
  });
}

/** Activity rows of one marker email, written as the service writes them but dated `createdAt`. */
async function activityRows(email: string, createdAt: Date, count: number): Promise<void> {
  const rows = Array.from({ length: count }, () => ({ action: 'auth.login', email, userId: null, ip: null, userAgent: null, details: null, createdAt }));
  await ctx().models.ActivityLog.bulkCreate(rows);
}

const countActivity = (email: string) => ctx().models.ActivityLog.count({ where: { email } });

describe('retention (src/services/retention.ts)', () => {
  it('when activity rows are older than ACTIVITY_RETENTION_DAYS, then they go and newer ones stay', async () => {
    const email = uniqueEmail('retention');
    await activityRows(email, daysAgo(91), 3);
    await activityRows(email, daysAgo(89), 2);
    const report = await retention().runOnce();
    assert.ok(report);
    assert.ok(report.activity_logs >= 3);
    assert.equal(await countActivity(email), 2);
  });

  it('when ACTIVITY_RETENTION_DAYS is 0, then no activity row goes', async () => {
    const email = uniqueEmail('retention-forever');
    await activityRows(email, daysAgo(3650), 2);
    const report = await retention({ days: 0 }).runOnce();
    assert.equal(report?.activity_logs, 0);
    assert.equal(await countActivity(email), 2);
  });

  it('when one-time codes, magic links and reset tokens are spent or long expired, then they go; live and just-expired ones stay', async () => {
    const { models } = ctx();
    const email = uniqueEmail('retention-credentials');
    const nowSeconds = Math.floor(Date.now() / 1000);
    const otp = (expiresAt: number) => ({ id: crypto.randomUUID(), userEmail: email, code: crypto.randomBytes(16).toString('hex'), expiresAt });
    const [oldCode, recentCode, liveCode] = [otp(nowSeconds - 2 * 86_400), otp(nowSeconds - 60), otp(nowSeconds + 600)];
    await models.OtpCode.bulkCreate([oldCode, recentCode, liveCode]);
    const link = (expiresAt: Date) => ({ id: crypto.randomUUID(), identifier: email, value: crypto.randomBytes(32).toString('hex'), expiresAt });
    const [oldLink, liveLink] = [link(daysAgo(2)), link(new Date(Date.now() + 600_000))];
    await models.AuthVerification.bulkCreate([oldLink, liveLink]);
    const user = await makeUser({ email });
    const reset = (expiresAt: Date, usedAt: Date | null = null) => ({ id: crypto.randomUUID(), userId: user.id, tokenHash: crypto.randomBytes(32).toString('hex'), expiresAt, usedAt });
    const inAnHour = new Date(Date.now() + 3_600_000);
    const [oldReset, usedReset, liveReset] = [reset(daysAgo(2)), reset(inAnHour, new Date()), reset(inAnHour)];
    await models.PasswordResetToken.bulkCreate([oldReset, usedReset, liveReset]);

    await retention().runOnce();

    const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id).sort();
    assert.deepEqual(ids(await models.OtpCode.findAll({ where: { userEmail: email } })), [recentCode.id, liveCode.id].sort());
    assert.deepEqual(ids(await models.AuthVerification.findAll({ where: { identifier: email } })), [liveLink.id]);
    assert.deepEqual(ids(await models.PasswordResetToken.findAll({ where: { userId: user.id } })), [liveReset.id]);
  });

  it('when email verification or change links are a day past their end, then they go; live ones stay', async () => {
    const user = await makeUser();
    const link = (expiresAt: Date) => ({ id: crypto.randomUUID(), userId: user.id, purpose: 'verify' as const, tokenHash: crypto.randomBytes(32).toString('hex'), expiresAt });
    const [old, live] = [link(daysAgo(2)), link(new Date(Date.now() + 86_400_000))];
    await ctx().models.EmailToken.bulkCreate([old, live]);

    await retention().runOnce();

    assert.deepEqual((await ctx().models.EmailToken.findAll({ where: { userId: user.id } })).map((row) => row.id), [live.id]);
  });

  it('when sessions are a day past their end or their sign-out, then they go; live and just-ended ones stay', async () => {
    const user = await makeUser();
    const session = (overrides: { expiresAt?: Date; revokedAt?: Date | null }) => ({
      id: crypto.randomUUID(), userId: user.id, method: 'password', ip: null, userAgent: null, browser: null, os: null,
      createdAt: daysAgo(100), lastUsedAt: daysAgo(3), expiresAt: overrides.expiresAt ?? new Date(Date.now() + 86_400_000), revokedAt: overrides.revokedAt ?? null,
    });
    const [expired, signedOut, live, justEnded] = [session({ expiresAt: daysAgo(2) }), session({ revokedAt: daysAgo(2) }), session({}), session({ revokedAt: new Date() })];
    await ctx().models.Session.bulkCreate([expired, signedOut, live, justEnded]);

    await retention().runOnce();

    const left = (await ctx().models.Session.findAll({ where: { userId: user.id } })).map((row) => row.id).sort();
    assert.deepEqual(left, [live.id, justEnded.id].sort());
  });

  it('when there are more rows than one batch, then they go in several small DELETEs', async () => {
    const email = uniqueEmail('retention-batches');
    await activityRows(email, daysAgo(200), 12);
    let report: Awaited<ReturnType<ReturnType<typeof retention>['runOnce']>> = null;
    const statements = await sqlSentDuring(async () => {
      report = await retention({ batchSize: 5 }).runOnce();
    });
    const deletes = statements.filter((sql) => /^DELETE FROM [`"]?activity_logs/.test(sql));
    assert.ok(report);
    assert.equal(await countActivity(email), 0);
    // 12 rows (and any other test's old rows): at least three DELETEs of at most five ids each.
    assert.ok(deletes.length >= 3, `${deletes.length} DELETEs`);
    for (const sql of deletes) {
      const ids = sql.match(/IN \(([^)]*)\)/);
      assert.ok(ids, sql);
      assert.ok(ids[1].split(',').length <= 5, `at most one batch of ids per DELETE: ${sql}`);
    }
  });

  it('when two pruners start at once (two instances), then one runs and the other skips', async () => {
    const email = uniqueEmail('retention-lock');
    await activityRows(email, daysAgo(100), 4);
    const reports = await Promise.all([retention().runOnce(), retention().runOnce()]);
    assert.equal(reports.filter((report) => report !== null).length, 1);
    assert.equal(await countActivity(email), 0);
    // The lock is released after the run: the next run runs.
    assert.notEqual(await retention().runOnce(), null);
  });

  it('when another instance holds the lock, then nothing is deleted', async () => {
    const email = uniqueEmail('retention-held');
    await activityRows(email, daysAgo(100), 2);
    await ctx().store.set('retention:running', 'another instance', 60);
    assert.equal(await retention().runOnce(), null);
    assert.equal(await countActivity(email), 2);
    assert.equal(await ctx().store.get('retention:running'), 'another instance', 'the other instance keeps its lock');
  });

  it('when started and stopped (server start and shutdown), then the timer runs a first pass and stop waits for it', async () => {
    const email = uniqueEmail('retention-timer');
    await activityRows(email, daysAgo(100), 2);
    const pruner = retention({ firstRunMs: 1, intervalMs: 60_000 });
    pruner.start();
    const deadline = Date.now() + 5000;
    while ((await countActivity(email)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await pruner.stop();
    assert.equal(await countActivity(email), 0);
  });
});
