import assert from 'node:assert/strict';
import { Op } from 'sequelize';
import { ctx, uniqueEmail } from '../../support/context';
import { createContainer } from '../../../src/container';
import { createUserImport, IMPORT_BATCH_SIZE, IMPORT_MESSAGES, type ImportSummary } from '../../../src/services/user-transfer/user-import';
import { checkImportRecord } from '../../../src/schemas/user-transfer.schemas';

const AUDIT = { actor: null, context: { ip: null, userAgent: 'test' } };
const body = (records: unknown[]) => [Buffer.from(records.map((record) => JSON.stringify(record)).join('\n'))];

describe('user import service (batches)', function () {
  this.timeout(120_000);
  const container = () => {
    const c = ctx();
    return createContainer({ config: c.config, logger: c.logger, sequelize: c.sequelize, models: c.models, store: c.store });
  };

  it('when the database fails in the middle of a batch, then none of that batch is written, its records fail, and the next batch is written', async () => {
    const services = container();
    let calls = 0;
    // The first batch's creation fails as a lost connection would (not a refusal of a record): that batch rolls back.
    const flaky = {
      createUser: services.users.createUser,
      createUsers: async (...args: Parameters<typeof services.users.createUsers>) => {
        calls += 1;
        if (calls === 1) throw new Error('connection lost');
        return services.users.createUsers(...args);
      },
    };
    const userImport = createUserImport({ ...services, users: flaky, credentials: services.credentialSet, checkRecord: checkImportRecord });
    const label = `batch${Date.now()}`;
    const emails = Array.from({ length: IMPORT_BATCH_SIZE + 50 }, () => uniqueEmail(label));
    const summary: ImportSummary = await userImport.importUsers(body(emails.map((email) => ({ email }))), { format: 'ndjson', mode: 'create' }, AUDIT);
    assert.equal(summary.created, 50);
    assert.equal(summary.failed, IMPORT_BATCH_SIZE);
    assert.ok(summary.errors.every((error) => error.error === IMPORT_MESSAGES.batchFailed));
    assert.deepEqual(summary.errors.map((error) => error.line), Array.from({ length: IMPORT_BATCH_SIZE }, (_, at) => at + 1));
    const written = await ctx().models.User.findAll({ where: { email: { [Op.in]: emails } }, attributes: ['email'] });
    assert.deepEqual(new Set(written.map((user) => user.email)), new Set(emails.slice(IMPORT_BATCH_SIZE)));
    const profiles = await ctx().models.UserProfile.count({ where: { userId: (await ctx().models.User.findAll({ where: { email: { [Op.in]: emails } }, attributes: ['id'] })).map((user) => user.id) } });
    assert.equal(profiles, 50, 'a profile row for each written user, none left over');
  });

  it('when an import ends, then exactly one activity row records its counts and no record content', async () => {
    const services = container();
    const userImport = createUserImport({ ...services, credentials: services.credentialSet, checkRecord: checkImportRecord });
    const before = await ctx().models.ActivityLog.count({ where: { action: 'users.imported' } });
    const email = uniqueEmail('audited');
    await userImport.importUsers(body([{ email, password: 'a long and unusual passphrase 42' }, { email: 'nope' }]), { format: 'ndjson', mode: 'create' }, AUDIT);
    const rows = await ctx().models.ActivityLog.findAll({ where: { action: 'users.imported' }, order: [['id', 'DESC']] });
    assert.equal(rows.length, before + 1);
    assert.deepEqual(rows[0].details, { mode: 'create', created: 1, updated: 0, skipped: 0, failed: 1, via: 'cli' });
    assert.doesNotMatch(JSON.stringify(rows[0]), /passphrase|audited/);
  });
});
