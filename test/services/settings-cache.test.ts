import assert from 'node:assert/strict';
import { Op } from 'sequelize';
import { ctx, sqlSentDuring } from '../support/context';
import { createTestUser } from '../support/users';
import { createSequelize } from '../../src/db/sequelize';
import { defineModels } from '../../src/models';
import { createActivityService } from '../../src/services/operations/activity.service';
import { createSettingsService, type SettingsService } from '../../src/services/operations/settings.service';
import type { Models } from '../../src/models';

function settingsOver(models: Models): SettingsService {
  const { config, sequelize, store, logger } = ctx();
  return createSettingsService({ config, models, activity: createActivityService({ sequelize, models, logger }), store, logger });
}

/** The settings SELECTs the run's database receives while `fn` runs. */
async function settingsReads(fn: () => Promise<unknown>): Promise<number> {
  const statements = await sqlSentDuring(fn);
  return statements.filter((sql) => /SELECT .* FROM `settings`/.test(sql)).length;
}

describe('security settings cache (a copy per process, checked against a version in the shared store)', () => {
  afterEach(async () => {
    await ctx().models.Setting.destroy({ where: { key: { [Op.like]: 'security.%' } } });
  });

  it('when settings are read again and nothing was written, then the database is asked once', async () => {
    const settings = settingsOver(ctx().models);
    await ctx().models.Setting.destroy({ where: { key: 'security.allowRegistration' } });
    const reads = await settingsReads(async () => {
      for (let i = 0; i < 5; i++) assert.equal((await settings.getSecuritySettings()).allowRegistration.value, true);
    });
    assert.equal(reads, 1);
  });

  it('when settings are read again from a current copy, then they are resolved once and shared frozen; a write resolves them anew', async () => {
    const { models } = ctx();
    const settings = settingsOver(models);
    const first = await settings.getSecuritySettings();
    assert.equal(await settings.getSecuritySettings(), first, 'the same resolution while the copy is current');
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.requireTwoFactorRoles.value), 'no caller can change what the others read');
    await models.Setting.upsert({ key: 'security.allowRegistration', value: false });
    const after = await settings.getSecuritySettings();
    assert.notEqual(after, first);
    assert.equal(after.allowRegistration.value, false);
  });

  it('when a setting is written through the models, inside a transaction or not, then the next read sees it', async () => {
    const { models, sequelize } = ctx();
    const settings = settingsOver(models);
    await settings.getSecuritySettings();
    await models.Setting.upsert({ key: 'security.allowRegistration', value: false });
    assert.equal((await settings.getSecuritySettings()).allowRegistration.value, false);
    await sequelize.transaction(async (transaction) => {
      await models.Setting.upsert({ key: 'security.allowRegistration', value: true }, { transaction });
    });
    assert.equal((await settings.getSecuritySettings()).allowRegistration.value, true);
    await models.Setting.destroy({ where: { key: 'security.allowRegistration' } });
    await models.Setting.upsert({ key: 'security.jwtExpiresIn', value: '2h' });
    const after = await settings.getSecuritySettings();
    assert.equal(after.jwtExpiresIn.seconds, 7200);
    assert.equal(after.allowRegistration.source, 'default');
  });

  it('when an admin changes a setting on another instance (its own connection and models), then this one sees it on its next read', async () => {
    const { config, logger } = ctx();
    const here = settingsOver(ctx().models);
    assert.equal((await here.getSecuritySettings()).jwtExpiresIn.source, 'default');
    const otherSequelize = createSequelize(config.databaseUrl, logger);
    try {
      const there = settingsOver(defineModels(otherSequelize));
      const admin = await createTestUser('admin');
      await there.updateSecuritySettings({ jwtExpiresIn: '45m' }, { actor: { id: admin.id, email: admin.email }, context: { ip: '127.0.0.1', userAgent: null } });
      const seen = await here.getSecuritySettings();
      assert.equal(seen.jwtExpiresIn.value, '45m');
      assert.equal(seen.jwtExpiresIn.source, 'admin');
    } finally {
      await otherSequelize.close();
    }
  });
});
