import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { ctx, uniqueEmail } from '../../support/context';
import { createContainer } from '../../../src/container';
import { defOf } from '../../support/profiles';

describe('user export service (keyset paging)', function () {
  this.timeout(120_000);

  it('when the table holds more users than a page, then every user is written exactly once, a page at a time, in id order', async () => {
    const c = ctx();
    // A service configured with the field the users hold (the export writes configured fields only).
    const profileDefinition = defOf({ name: 'plan', label: 'Plan', type: 'string' });
    const { userExport } = createContainer({ config: c.config, logger: c.logger, sequelize: c.sequelize, models: c.models, store: c.store, profileDefinition });
    const rows = Array.from({ length: 1100 }, () => ({ id: crypto.randomUUID(), email: uniqueEmail('paged'), username: `paged_${crypto.randomBytes(6).toString('hex')}`, role: 'viewer' as const }));
    await c.models.User.bulkCreate(rows);
    await c.models.UserProfile.bulkCreate(rows.map((row) => ({ userId: row.id, data: { plan: 'gold' } })));

    const pages: string[] = [];
    for await (const page of userExport.exportUsers({ actor: null, context: { ip: null, userAgent: null } })) pages.push(page);
    const records = pages.join('').trim().split('\n').map((line) => JSON.parse(line) as { email: string; profile: Record<string, unknown> });
    assert.ok(pages.length >= 3, `${pages.length} pages`);
    assert.equal(records.length, await c.models.User.count());
    assert.equal(new Set(records.map((record) => record.email)).size, records.length, 'no user twice');
    const ours = records.filter((record) => record.email.startsWith('paged-'));
    assert.equal(ours.length, rows.length);
    assert.ok(ours.every((record) => record.profile.plan === 'gold'), 'each user with its own profile data');
  });
});
