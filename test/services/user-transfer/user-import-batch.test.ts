import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Op, QueryTypes } from 'sequelize';
import { ctx, sqlSentDuring, uniqueEmail } from '../../support/context';
import { createTestUser } from '../../support/users';
import { createContainer } from '../../../src/container';
import { ROLES } from '../../../src/models';
import { defineUserProfile } from '../../../src/profiles/profile-definition';
import { createUserImport, type ImportMode, type ImportSummary } from '../../../src/services/user-transfer/user-import';
import { USER_MESSAGES } from '../../../src/services/accounts/user.service';
import { checkImportRecord } from '../../../src/schemas/user-transfer.schemas';

const AUDIT = { actor: null, context: { ip: null, userAgent: 'test' } };
const body = (records: unknown[]) => [Buffer.from(records.map((record) => JSON.stringify(record)).join('\n'))];
const PASSPHRASE = 'a long and unusual passphrase 42';
const HOUR_MS = 3_600_000;

const definition = defineUserProfile({
  fields: [
    { name: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'], default: 'free' },
    { name: 'seats', label: 'Seats', type: 'number', validation: { min: 1, max: 50 } },
  ],
});

/** The services on the run's database, with the import's profile fields. */
function services() {
  const c = ctx();
  return createContainer({ config: c.config, logger: c.logger, sequelize: c.sequelize, models: c.models, store: c.store, profileDefinition: definition });
}

async function importRecords(records: unknown[], mode: ImportMode = 'create', overrides: Partial<Parameters<typeof createUserImport>[0]> = {}): Promise<ImportSummary> {
  const c = services();
  const userImport = createUserImport({ ...c, credentials: c.credentialSet, checkRecord: checkImportRecord, ...overrides });
  return userImport.importUsers(body(records), { format: 'ndjson', mode }, AUDIT);
}

const userByEmail = (email: string) => ctx().models.User.findOne({ where: { email }, include: [{ model: ctx().models.UserProfile, as: 'profile' }], rejectOnEmpty: true });

describe('user import service (new users created together)', function () {
  this.timeout(120_000);

  it('when one batch mixes new users, a stored email, a repeated email, a bad profile value and username clashes, then each record has the outcome it had one by one, with one INSERT of users per group', async () => {
    const stored = await createTestUser('viewer');
    const hex = crypto.randomBytes(4).toString('hex');
    const first = `shared${hex}@one.example.test`;
    const [badProfile, storedName, named, sameName, admin, pro] = ['profile', 'storedname', 'named', 'samename', 'admin', 'pro'].map((label) => uniqueEmail(label));
    const records = [
      { email: first, role: 'editor', emailVerified: true, createdAt: '2020-01-02T03:04:05.678Z', password: PASSPHRASE },
      { email: stored.email.toUpperCase(), firstName: 'Not written' },
      { email: badProfile, profile: { seats: 99 } },
      { email: storedName, username: stored.username.toUpperCase() },
      { email: named, username: `Batch_${hex}` },
      { email: sameName, username: `batch_${hex}` },
      { email: first, firstName: 'Repeated' },
      { email: `shared${hex}@two.example.test` },
      { email: admin, role: 'admin', active: false, emailVerified: false },
      { email: pro, profile: { plan: 'pro', seats: 3 }, firstName: 'Pro', lastName: 'User' },
    ];
    let summary: ImportSummary | undefined;
    const statements = await sqlSentDuring(async () => {
      summary = await importRecords(records);
    });
    assert.deepEqual(summary, {
      created: 5,
      updated: 0,
      skipped: 2,
      failed: 3,
      errors: [
        { line: 3, email: badProfile, error: summary!.errors[0].error },
        { line: 4, email: storedName, error: USER_MESSAGES.duplicate },
        { line: 6, email: sameName, error: USER_MESSAGES.duplicate },
      ],
    });
    assert.match(summary!.errors[0].error, /^profile\.seats: /);
    const inserts = (table: string) => statements.filter((sql) => new RegExp(`^INSERT INTO [\`"]?${table}[\`"]? `).test(sql)).length;
    // Two groups: the repeated email (line 7) is written alone after the new users before it, as its outcome depends on them.
    assert.equal(inserts('users'), 2, 'the new users of the batch in one INSERT per group');
    assert.equal(inserts('user_profiles'), 2, 'their profiles in one INSERT per group');

    const editor = await userByEmail(first);
    assert.equal(editor.role, 'editor');
    assert.ok(editor.emailVerifiedAt, 'vouched-for address');
    assert.equal(editor.createdAt.toISOString(), '2020-01-02T03:04:05.678Z');
    assert.equal(editor.selfRegistered, false);
    assert.equal(editor.firstName, null, 'the repeated record did not write');
    assert.equal(editor.username, `shared${hex}`);
    assert.match(editor.passwordHash as string, /^pbkdf2:/);
    assert.deepEqual((editor as unknown as { profile: { data: unknown } }).profile.data, { plan: 'free' });
    const second = await userByEmail(`shared${hex}@two.example.test`);
    assert.match(second.username, new RegExp(`^shared${hex}-[0-9a-f]{6}$`), 'a generated name taken earlier in the batch is made unique');
    assert.equal((await userByEmail(named)).username, `Batch_${hex}`);
    const inactiveAdmin = await userByEmail(admin);
    assert.deepEqual([inactiveAdmin.role, inactiveAdmin.active, inactiveAdmin.emailVerifiedAt], ['admin', false, null]);
    const proUser = await userByEmail(pro);
    assert.deepEqual([proUser.firstName, proUser.lastName, (proUser as unknown as { profile: { data: unknown } }).profile.data], ['Pro', 'User', { plan: 'pro', seats: 3 }]);
    await stored.reload();
    assert.equal(stored.firstName, null, 'create mode never changes a stored user');
    const refused = await ctx().models.User.count({ where: { email: [badProfile, storedName, sameName] } });
    assert.equal(refused, 0, 'no refused record left a user behind');
  });

  it('when an upsert batch holds a new email twice and a stored one, then the first creates, the second updates it, and the stored user is updated', async () => {
    const stored = await createTestUser('viewer');
    const [twice, once] = [uniqueEmail('twice'), uniqueEmail('once')];
    const summary = await importRecords(
      [{ email: twice, firstName: 'One' }, { email: stored.email, lastName: 'Updated' }, { email: twice, firstName: 'Two', role: 'author' }, { email: once }],
      'upsert',
    );
    assert.deepEqual(summary, { created: 2, updated: 2, skipped: 0, failed: 0, errors: [] });
    const twiceUser = await userByEmail(twice);
    assert.deepEqual([twiceUser.firstName, twiceUser.role], ['Two', 'author']);
    await stored.reload();
    assert.equal(stored.lastName, 'Updated');
  });

  it('when another writer creates one of the emails between the batch read and its insert, then the batch goes record by record and that record is skipped', async () => {
    const c = services();
    const [before, raced, after] = [uniqueEmail('before'), uniqueEmail('raced'), uniqueEmail('after')];
    // Right after the batch reads the stored emails, a registration creates one of them in the batch's transaction
    // (SQLite lets no other writer in meanwhile; on MariaDB one could commit in that gap).
    let racedOnce = false;
    const racingUser = new Proxy(c.models.User, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (property !== 'findAll') return value;
        return async (...args: Parameters<typeof target.findAll>) => {
          const rows = await target.findAll(...args);
          if (!racedOnce) {
            racedOnce = true;
            await c.users.createUser({ email: raced, firstName: 'Registered' }, { transaction: args[0]?.transaction ?? undefined });
          }
          return rows;
        };
      },
    });
    const summary = await importRecords([{ email: before }, { email: raced, firstName: 'Imported' }, { email: after }], 'create', { models: { ...c.models, User: racingUser } });
    assert.deepEqual(summary, { created: 2, updated: 0, skipped: 1, failed: 0, errors: [] });
    assert.equal((await userByEmail(raced)).firstName, 'Registered');
    const profiles = await ctx().models.UserProfile.count({ where: { userId: (await ctx().models.User.findAll({ where: { email: [before, raced, after] } })).map((user) => user.id) } });
    assert.equal(profiles, 3, 'one profile row each, none from the undone insert');
  });

  it('when users of every role and many hours are imported together, then the dashboard counts equal a count over users and each imported user is in the search index once filled', async () => {
    const { sequelize, models } = ctx();
    const start = Date.UTC(2021, 5, 1, 0, 30);
    const records = Array.from({ length: 60 }, (_, at) => ({
      email: uniqueEmail(`counted${at}`),
      role: ROLES[at % ROLES.length],
      createdAt: new Date(start + (at % 7) * HOUR_MS + at * 1000).toISOString(),
      firstName: `Counted${at}`,
    }));
    const summary = await importRecords(records);
    assert.equal(summary.created, records.length);

    const users = await models.User.findAll({ attributes: ['id', 'role', 'createdAt'], raw: true });
    const roleCounts = await sequelize.query<{ role: string; total: number }>('SELECT role, total FROM user_role_counts', { type: QueryTypes.SELECT });
    assert.deepEqual(
      Object.fromEntries(roleCounts.filter((row) => Number(row.total) !== 0).map((row) => [row.role, Number(row.total)])),
      Object.fromEntries(ROLES.map((role) => [role, users.filter((user) => user.role === role).length]).filter(([, count]) => count !== 0)),
    );
    const signups = await sequelize.query<{ hour: number; total: number }>('SELECT hour, total FROM user_signups', { type: QueryTypes.SELECT });
    const byHour = new Map<number, number>();
    for (const user of users) {
      const hour = Math.floor(new Date(user.createdAt).getTime() / HOUR_MS);
      byHour.set(hour, (byHour.get(hour) ?? 0) + 1);
    }
    assert.deepEqual(
      new Map(signups.filter((row) => Number(row.total) !== 0).map((row) => [Number(row.hour), Number(row.total)])),
      byHour,
    );

    await services().searchIndex.fill();
    const imported = await models.User.findAll({ where: { email: { [Op.in]: records.map((record) => record.email) } }, attributes: ['id'] });
    const indexed = await sequelize.query<{ n: number }>(`SELECT COUNT(DISTINCT user_id) AS n FROM user_search_grams WHERE user_id IN (${imported.map(() => '?').join(',')})`, {
      replacements: imported.map((user) => user.id),
      type: QueryTypes.SELECT,
    });
    assert.equal(Number(indexed[0].n), records.length);
  });

  it('when an endpoint listens for user.created, then each user created together is one event; when none listens, none', async () => {
    const c = services();
    const admin = await createTestUser('admin');
    const audit = { actor: { id: admin.id, email: admin.email }, context: { ip: null, userAgent: 'test' } };
    const quiet = [uniqueEmail('quiet')];
    await importRecords(quiet.map((email) => ({ email })));
    const { webhook } = await c.webhooks.create({ url: 'http://127.0.0.1:9/import-hook', events: ['user.created'] }, audit);
    try {
      const heard = [uniqueEmail('heard'), uniqueEmail('heard'), uniqueEmail('heard')];
      await importRecords(heard.map((email) => ({ email })));
      const entries = await ctx().models.OutboxEntry.findAll({ where: { endpointId: webhook.id, eventType: 'user.created' } });
      const named = entries.map((entry) => (JSON.parse(entry.payload) as { data: { user: { email: string } } }).data.user.email);
      assert.deepEqual(named.sort(), [...heard].sort());
      assert.ok(entries.every((entry) => !/passwordHash|pbkdf2/.test(entry.payload)));
    } finally {
      await c.webhooks.remove(webhook.id, audit);
    }
  });
});
