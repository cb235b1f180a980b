import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx, sqlSentDuring } from '../support/context';
import { createTestUser } from '../support/users';
import { PASSWORD, makeUser } from '../support/auth';
import { createAuthUserRecords } from '../../src/sessions/auth-user-records';
import { toAuthUser } from '../../src/sessions/auth-user';

// The hand-written read of the sign-in and token paths must give what the models give, on either dialect.
describe('auth user records (the sign-in and token-check read)', () => {
  const records = () => createAuthUserRecords(ctx().sequelize);

  it('when a user is read by email or by id, then the same user the models read, with typed active, epoch and profile data', async () => {
    const { models } = ctx();
    const created = await createTestUser('editor', { firstName: 'Ada', lastName: null, passwordHash: 'pbkdf2$stored' });
    await models.User.increment('tokenEpoch', { by: 2, where: { id: created.id } });
    await models.UserProfile.update({ data: { team: 'core', level: 3, tags: ['a'] } }, { where: { userId: created.id } });
    const viaModels = await models.User.findByPk(created.id, { include: [{ model: models.UserProfile, as: 'profile' }], rejectOnEmpty: true });

    const byEmail = await records().byEmail(created.email);
    const byId = await records().byId(created.id);

    // The models' user plus what only this read knows: whether TOTP is on.
    assert.deepEqual(byEmail, { user: { ...toAuthUser(viaModels), twoFactorEnabled: false }, active: true, passwordHash: 'pbkdf2$stored' });
    assert.deepEqual(byId, byEmail);
    assert.equal(byEmail?.user.tokenEpoch, 2);
    assert.deepEqual(byEmail?.user.profileData, { team: 'core', level: 3, tags: ['a'] });
  });

  it('when the user is deactivated, has no password or no profile row, then the record says so', async () => {
    const { models } = ctx();
    const user = await createTestUser('viewer', { active: false });
    await models.UserProfile.destroy({ where: { userId: user.id } });

    const record = await records().byId(user.id);

    assert.equal(record?.active, false);
    assert.equal(record?.passwordHash, null);
    assert.deepEqual(record?.user.profileData, {});
  });

  it('when a user without a second factor signs in with a password, then the database sees one read and two writes: the user (with whether TOTP is on), the session row, the activity row', async () => {
    const user = await makeUser();
    await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD }).expect(200); // settings now cached
    const statements = await sqlSentDuring(() => request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD }).expect(200));
    // Only this sign-in's statements: other tests' late writes may reach the shared connection meanwhile.
    const own = statements.filter((sql) => sql.includes(user.email) || sql.includes(user.id));
    assert.equal(own.length, 3, own.join('\n'));
    assert.match(own[0], /SELECT u\.id, .* FROM users u LEFT JOIN user_profiles p/s);
    assert.match(own[1], /^INSERT INTO sessions /);
    assert.match(own[2], /^INSERT INTO activity_logs/);
  });

  it('when no user matches, including for quotes and SQL in the value, then null and no error', async () => {
    const user = await createTestUser();
    for (const value of ['nobody@example.com', "x' OR '1'='1", `${user.email}' --`, '%', '']) {
      assert.equal(await records().byEmail(value), null, value);
      assert.equal(await records().byId(value), null, value);
    }
  });
});
