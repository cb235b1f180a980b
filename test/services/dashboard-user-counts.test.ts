import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { ctx, uniqueEmail } from '../support/context';
import { createTestUser } from '../support/users';
import { ROLES } from '../../src/models';
import { createActivityRollup } from '../../src/services/dashboard/activity-rollup';
import { createDashboardService } from '../../src/services/dashboard/dashboard.service';

const DAY_MS = 86_400_000;

/** The dashboard's users per role and new users per day of the month, and the same counted over the users table. */
async function shownAndCounted() {
  const { sequelize, models } = ctx();
  const dashboard = createDashboardService({ sequelize, models, rollup: createActivityRollup({ sequelize }) });
  const figures = await dashboard.figures();
  const month = figures.windows.find((w) => w.name === 'month')!;
  const day = figures.windows.find((w) => w.name === 'day')!;
  const users = await models.User.findAll({ attributes: ['role', 'createdAt'], raw: true });
  const count = (buckets: typeof month.buckets) =>
    buckets.map((b) => users.filter((u) => new Date(u.createdAt).getTime() >= b.start.getTime() && new Date(u.createdAt).getTime() < b.end.getTime()).length);
  return {
    shown: { roles: Object.fromEntries(figures.adoption.map((a) => [a.role, a.users])), month: month.newUsers, day: day.newUsers },
    counted: { roles: Object.fromEntries(ROLES.map((role) => [role, users.filter((u) => u.role === role).length])), month: count(month.buckets), day: count(day.buckets) },
  };
}

async function assertInStep(when: string) {
  const { shown, counted } = await shownAndCounted();
  assert.deepEqual(shown, counted, `${when}: the dashboard's counts equal a count over users`);
}

describe('dashboard user counts (user_role_counts, user_signups)', () => {
  it('when users are created, change role, move in time and are deleted, by the service or by plain SQL, then the figures stay equal to a count over users', async () => {
    const { sequelize, models } = ctx();
    await assertInStep('at the start');

    const editor = await createTestUser('editor');
    const author = await createTestUser('author');
    await assertInStep('after two creates');

    await editor.update({ role: 'admin' });
    await assertInStep('after a role change');

    // A sign-in's kind of update (other columns) moves nothing; moving the creation time moves its hour.
    await author.update({ lastName: 'Moved' });
    await models.User.update({ createdAt: new Date(Date.now() - 3 * DAY_MS) }, { where: { id: author.id } });
    await assertInStep('after the creation time moved three days back');

    // As a seeder or an operator writes: no model, no service.
    const id = crypto.randomUUID();
    await sequelize.getQueryInterface().bulkInsert('users', [
      { id, email: uniqueEmail('seeded'), username: `seeded_${id.slice(0, 8)}`, role: 'viewer', active: true, token_epoch: 0, created_at: new Date(), updated_at: new Date() },
    ]);
    await sequelize.query("UPDATE users SET role = 'editor' WHERE id = ?", { replacements: [id] });
    await assertInStep('after a plain SQL insert and role change');

    await models.UserProfile.destroy({ where: { userId: [editor.id, author.id] } });
    await editor.destroy();
    await sequelize.query('DELETE FROM users WHERE id = ?', { replacements: [id] });
    await assertInStep('after deletes by the model and by SQL');
  });

  it('when opposite role changes run at once, then both commit (no deadlock) and the counts are exact', async () => {
    const { sequelize, models } = ctx();
    const pairs = await Promise.all(Array.from({ length: 6 }, (_, i) => createTestUser(i % 2 ? 'admin' : 'viewer')));
    await Promise.all(
      pairs.map((user) =>
        sequelize.transaction(async (transaction) => {
          await models.User.update({ role: user.role === 'admin' ? 'viewer' : 'admin' }, { where: { id: user.id }, transaction });
        }),
      ),
    );
    await assertInStep('after six concurrent opposite role changes');
  });

  it('when the figures are read, then neither users nor the activity log is read for them', async () => {
    const { sequelize } = ctx();
    const statements: string[] = [];
    const query = sequelize.query.bind(sequelize);
    sequelize.query = ((sql: unknown, options?: unknown) => {
      statements.push(String(sql));
      return query(sql as string, options as never);
    }) as typeof sequelize.query;
    try {
      await createDashboardService({ sequelize, models: ctx().models, rollup: createActivityRollup({ sequelize }) }).figures();
    } finally {
      sequelize.query = query;
    }
    const counts = await sequelize.query<{ n: number }>('SELECT COUNT(*) AS n FROM user_role_counts', { type: QueryTypes.SELECT });
    assert.ok(Number(counts[0].n) > 0);
    assert.deepEqual(statements.filter((sql) => /FROM users\b/.test(sql) && !/JOIN users/.test(sql)), [], 'no count over users');
    assert.deepEqual(statements.filter((sql) => sql.includes('activity_logs')), []);
  });
});
