import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Op } from 'sequelize';
import request from 'supertest';
import { ctx, uniqueEmail } from '../../support/context';
import { createUserWithToken } from '../../support/users';
import { removeAllWebhooks } from '../../support/webhooks';
import { SoftAuthenticator } from '../../support/passkey-authenticator';
import { formBody, signedIn } from '../../support/admin-pages';
import { createContainer, type Container } from '../../../src/container';
import type { Events } from '../../../src/services/operations/webhooks.service';
import type { EventType } from '../../../src/services/operations/webhook-events';
import { createApiKeyService } from '../../../src/services/security/api-key.service';
import { createSessionService } from '../../../src/services/security/session.service';
import { createTwoFactorService } from '../../../src/services/security/two-factor.service';
import { createPasskeyService } from '../../../src/services/sign-in-methods/passkey.service';
import { createEmailVerificationService } from '../../../src/services/accounts/email-verification.service';
import { createAccountLifecycleService } from '../../../src/services/accounts/account-lifecycle.service';
import { createProfileService } from '../../../src/services/accounts/profile.service';
import { createUserImport } from '../../../src/services/user-transfer/user-import';
import { createApiKeyHasher } from '../../../src/credentials/api-keys';
import { createRevocations } from '../../../src/sessions/revocations';
import { createAuthUserRecords } from '../../../src/sessions/auth-user-records';
import { createEmailQuota } from '../../../src/middleware/rate-limit';
import { checkImportRecord } from '../../../src/schemas/user-transfer.schemas';
import type { AccessClaims } from '../../../src/sessions/auth-user';
import type { User } from '../../../src/models';

const AFTER_THE_EVENT = 'failed after the event was recorded';
const CONTEXT = { ip: '203.0.113.9', userAgent: 'event-transactions test' };
const MOVED: EventType[] = [
  'session.revoked',
  'session.reuse_detected',
  'user.two_factor_disabled',
  'api_key.created',
  'api_key.revoked',
  'passkey.added',
  'passkey.removed',
  'user.email_verified',
  'users.imported',
  'user.updated',
];

/**
 * The app's own recorder, failing just after each event is written: whatever the change wrote in the same
 * transaction rolls back with it, and anything written outside it (the old way) stays behind to be seen.
 */
function failingAfterEvents(events: Events): Events {
  return {
    listens: events.listens,
    record: async (...args) => {
      await events.record(...args);
      throw new Error(AFTER_THE_EVENT);
    },
    recordForUser: async (...args) => {
      await events.recordForUser(...args);
      throw new Error(AFTER_THE_EVENT);
    },
  };
}

describe('webhook events in the transaction of their change (CONTRACT 16 "Delivery")', function () {
  this.timeout(60_000);
  let c: Container;
  let failing: Events;
  let endpointId: string;
  let admin: User;

  before(async () => {
    const { config, logger, sequelize, models, store, app } = ctx();
    c = createContainer({ config, logger, sequelize, models, store });
    failing = failingAfterEvents(c.events);
    const made = await createUserWithToken('admin');
    admin = made.user;
    // Loopback, never answered: the outbox worker is not started here, the rows are what is counted.
    const res = await request(app).post('/api/webhooks').set('Authorization', `Bearer ${made.token}`).send({ url: 'http://127.0.0.1:9/hook', events: MOVED });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    endpointId = res.body.webhook.id;
  });
  after(() => removeAllWebhooks(ctx().app));

  /** The outbox rows of `type` whose payload names `id` (a user's, usually). */
  const rows = (type: EventType, id: string) => ctx().models.OutboxEntry.findAll({ where: { endpointId, eventType: type, payload: { [Op.like]: `%${id}%` } } });
  const payloadOf = async (type: EventType, id: string) => {
    const found = await rows(type, id);
    assert.equal(found.length, 1, `exactly one ${type} row`);
    return JSON.parse(found[0].payload) as { type: string; data: Record<string, unknown> };
  };
  const audit = (user: User) => ({ actor: { id: user.id, email: user.email }, context: CONTEXT });

  const sessionServices = () => {
    const { models, store, logger } = ctx();
    const revocations = createRevocations({ models, store, logger });
    return { failing: createSessionService({ ...c, revocations, events: failing }), real: c.userSessions };
  };

  it('session.revoked: when the change fails after the event, no row and the session stays live; when it commits, one row', async () => {
    const { models } = ctx();
    const { user } = await createUserWithToken('viewer');
    const sessions = sessionServices();
    const { sid } = await c.userSessions.start(user, 'password', CONTEXT);
    await assert.rejects(sessions.failing.revoke(user.id, sid, audit(user)), new RegExp(AFTER_THE_EVENT));
    assert.equal((await models.Session.findByPk(sid, { rejectOnEmpty: true })).revokedAt, null, 'the row mark rolled back');
    assert.equal((await rows('session.revoked', user.id)).length, 0);
    assert.equal(await sessions.real.revoke(user.id, sid, audit(user)), true);
    assert.deepEqual((await payloadOf('session.revoked', user.id)).data.sessions, [{ id: sid }]);
    assert.ok((await models.Session.findByPk(sid, { rejectOnEmpty: true })).revokedAt);
  });

  it('session.reuse_detected: when the change fails after the event, no row and the row unmarked; when it commits, one row', async () => {
    const { models } = ctx();
    const { user } = await createUserWithToken('viewer');
    const sessions = sessionServices();
    const { sid } = await c.userSessions.start(user, 'password', CONTEXT);
    const claims = { sid, sub: user.id } as AccessClaims;
    await assert.rejects(sessions.failing.reuseDetected(claims, CONTEXT), new RegExp(AFTER_THE_EVENT));
    assert.equal((await models.Session.findByPk(sid, { rejectOnEmpty: true })).revokedAt, null);
    assert.equal((await rows('session.reuse_detected', user.id)).length, 0);
    await sessions.real.reuseDetected(claims, CONTEXT);
    assert.deepEqual((await payloadOf('session.reuse_detected', user.id)).data.session, { id: sid, method: 'password' });
  });

  it('user.two_factor_disabled: when the change fails after the event, no row and TOTP stays on; when it commits, one row', async () => {
    const { models } = ctx();
    const { user } = await createUserWithToken('editor');
    await models.TwoFactor.create({ userId: user.id, secret: 'sealed elsewhere', pendingSecret: null, enabledAt: new Date(), lastTimeStep: null });
    const twoFactor = createTwoFactorService({ ...c, credentials: c.credentialSet, throttle: c.accountThrottle, events: failing });
    await assert.rejects(twoFactor.disable(user, CONTEXT), new RegExp(AFTER_THE_EVENT));
    assert.ok(await models.TwoFactor.findByPk(user.id), 'the removal rolled back');
    assert.equal((await rows('user.two_factor_disabled', user.id)).length, 0);
    await c.twoFactor.disable(user, CONTEXT);
    assert.equal(await models.TwoFactor.findByPk(user.id), null);
    await payloadOf('user.two_factor_disabled', user.id);
  });

  it('api_key.created and api_key.revoked: when the change fails after the event, no row and no change; when it commits, one row each', async () => {
    const { config, models, store, logger } = ctx();
    const { user } = await createUserWithToken('editor');
    const owner = { id: user.id, email: user.email, role: user.role };
    const apiKeys = createApiKeyService({
      ...c,
      hasher: createApiKeyHasher(config.jwtSecret),
      verifier: { forget: async () => undefined },
      revocations: createRevocations({ models, store, logger }),
      credentials: c.credentialSet,
      events: failing,
    });
    await assert.rejects(apiKeys.create(owner, { name: 'rolled back' }, audit(user)), new RegExp(AFTER_THE_EVENT));
    assert.equal(await models.ApiKey.count({ where: { userId: user.id } }), 0, 'no key row');
    assert.equal((await rows('api_key.created', user.id)).length, 0);

    const made = await c.apiKeys.create(owner, { name: 'kept' }, audit(user));
    const created = await payloadOf('api_key.created', user.id);
    assert.equal((created.data.apiKey as { keyId: string }).keyId, made.apiKey.id);
    assert.ok(!JSON.stringify(created).includes(made.key), 'never the key');

    await assert.rejects(apiKeys.revoke(user.id, made.apiKey.id, audit(user)), new RegExp(AFTER_THE_EVENT));
    assert.equal((await models.ApiKey.findByPk(made.apiKey.id, { rejectOnEmpty: true })).revokedAt, null, 'still live');
    assert.equal((await rows('api_key.revoked', user.id)).length, 0);
    assert.equal(await c.apiKeys.revoke(user.id, made.apiKey.id, audit(user)), true);
    await payloadOf('api_key.revoked', user.id);
  });

  it('passkey.added and passkey.removed: when the change fails after the event, no row and no change; when it commits, one row each', async () => {
    const { sequelize, models } = ctx();
    const { user: row } = await createUserWithToken('viewer');
    const user = (await createAuthUserRecords(sequelize).byId(row.id))!.user;
    const passkeys = createPasskeyService({ ...c, authUsers: createAuthUserRecords(sequelize), credentials: c.credentialSet, events: failing });
    const authenticator = new SoftAuthenticator(ctx().config.baseUrl);
    const register = async (service: typeof passkeys, name: string) => service.register(user, authenticator.create(await service.registrationOptions(user)), name, CONTEXT);

    await assert.rejects(register(passkeys, 'rolled back'), new RegExp(AFTER_THE_EVENT));
    assert.equal(await models.Passkey.count({ where: { userId: user.id } }), 0, 'no passkey row');
    assert.equal((await rows('passkey.added', user.id)).length, 0);
    const added = await register(c.passkeys, 'kept');
    assert.deepEqual((await payloadOf('passkey.added', user.id)).data.passkey, { id: added.id, name: 'kept' });

    await assert.rejects(passkeys.remove(user, added.id, CONTEXT), new RegExp(AFTER_THE_EVENT));
    assert.ok(await models.Passkey.findByPk(added.id), 'the removal rolled back');
    assert.equal((await rows('passkey.removed', user.id)).length, 0);
    assert.equal(await c.passkeys.remove(user, added.id, CONTEXT), true);
    await payloadOf('passkey.removed', user.id);
  });

  it('user.email_verified by link: when the change fails after the event, no row and still unverified; when it commits, one row', async () => {
    const { models } = ctx();
    const { user } = await createUserWithToken('viewer', { emailVerified: false });
    const verification = createEmailVerificationService({ ...c, links: c.emailLinks, credentials: c.credentialSet, events: failing });
    const tokenOf = async () => new URL(await c.emailLinks.create(user.id, 'verify')).searchParams.get('token') as string;
    await assert.rejects(verification.verifyLink(await tokenOf(), CONTEXT), new RegExp(AFTER_THE_EVENT));
    assert.equal((await models.User.findByPk(user.id, { rejectOnEmpty: true })).emailVerifiedAt, null);
    assert.equal((await rows('user.email_verified', user.id)).length, 0);
    assert.equal(await c.emailVerification.verifyLink(await tokenOf(), CONTEXT), true);
    assert.equal((await payloadOf('user.email_verified', user.id)).data.via, 'link');
  });

  it('user.email_verified for an unverified account with a password (the squatter rule): the event fires as for any other', async () => {
    const { user } = await createUserWithToken('viewer', { emailVerified: false, selfRegistered: true, passwordHash: 'set by whoever signed up' });
    assert.deepEqual(await c.emailVerification.proven(user, 'otp', CONTEXT), { changed: true, passwordCleared: true });
    assert.equal((await payloadOf('user.email_verified', user.id)).data.via, 'otp');
  });

  it('users.imported: when the activity row and event fail together, neither is kept; when they commit, one of each', async () => {
    const { models } = ctx();
    const body = () => [Buffer.from(`${JSON.stringify({ email: uniqueEmail('imported') })}\n`)];
    const importing = createUserImport({ ...c, credentials: c.credentialSet, checkRecord: checkImportRecord, events: failing });
    await assert.rejects(importing.importUsers(body(), { format: 'ndjson', mode: 'create' }, audit(admin)), new RegExp(AFTER_THE_EVENT));
    const logged = () => models.ActivityLog.count({ where: { action: 'users.imported', userId: admin.id } });
    assert.equal(await logged(), 0, 'no activity row without its event');
    assert.equal((await rows('users.imported', admin.id)).length, 0);
    await c.userImport.importUsers(body(), { format: 'ndjson', mode: 'create' }, audit(admin));
    assert.equal(await logged(), 1);
    const imported = await payloadOf('users.imported', admin.id);
    assert.equal(imported.data.created, 1);
  });

  describe('user.updated by the owner (not only by an admin)', () => {
    it('when the owner saves their profile through PUT /api/user-profiles/:id, then one event names the changed fields, never their values', async () => {
      const { user, token } = await createUserWithToken('viewer');
      const bio = `a bio nobody else should read ${crypto.randomBytes(4).toString('hex')}`;
      const res = await request(ctx().app).put(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${token}`).send({ profile: { bio, company: 'Analytical Engines' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const event = await payloadOf('user.updated', user.id);
      assert.deepEqual(event.data, { user: { id: user.id, email: user.email, username: user.username, role: 'viewer' }, changes: { profile: ['bio', 'company'] }, actor: { id: user.id, email: user.email } });
      // Saved again unchanged: nothing changed, nothing fired.
      await request(ctx().app).put(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${token}`).send({ profile: { bio } }).expect(200);
      assert.equal((await rows('user.updated', user.id)).length, 1);
    });

    it('when the owner saves names and profile on /admin/profile, then one event holds both: names with from/to, profile fields by name', async () => {
      const session = await signedIn('author');
      const res = await request(ctx().app)
        .post('/admin/profile')
        .set('Cookie', session.cookie)
        .set('Accept', 'text/html')
        .type('form')
        .send(formBody({ _csrf: session.csrf, username: session.user.username, firstName: 'Ada', display_name: 'Countess of Lovelace' }));
      assert.equal(res.status, 303, res.text);
      const event = await payloadOf('user.updated', session.user.id);
      assert.deepEqual(event.data.changes, { firstName: { from: null, to: 'Ada' }, profile: ['display_name'] });
      assert.deepEqual(event.data.actor, { id: session.user.id, email: session.user.email });
      assert.ok(!JSON.stringify(event).includes('Countess'), 'a profile value is never sent');
    });

    it('when the profile write fails after the event, then neither the change nor the event is kept', async () => {
      const { models } = ctx();
      const { user } = await createUserWithToken('viewer');
      const profiles = createProfileService({ ...c, definition: c.profiles.definition, events: failing });
      await assert.rejects(profiles.update(user.id, { profile: { bio: 'never saved' } }, audit(user)), new RegExp(AFTER_THE_EVENT));
      assert.equal((await models.UserProfile.findByPk(user.id, { rejectOnEmpty: true })).bio, null);
      assert.equal((await rows('user.updated', user.id)).length, 0);
    });

    it('when the owner confirms a new address through GET /auth/email/confirm, then one event names email (and verified) with from/to, and no link', async () => {
      const { models } = ctx();
      const { user } = await createUserWithToken('author', { emailVerified: false });
      const newEmail = uniqueEmail('moved');
      const link = await c.emailLinks.create(user.id, 'change', { newEmail, sessionId: null });
      const url = new URL(link);
      const res = await request(ctx().app).get(`${url.pathname}${url.search}`);
      assert.equal(res.status, 302);
      assert.equal((await models.User.findByPk(user.id, { rejectOnEmpty: true })).email, newEmail);
      const event = await payloadOf('user.updated', user.id);
      assert.deepEqual(event.data, {
        user: { id: user.id, email: newEmail, username: user.username, role: 'author' },
        changes: { email: { from: user.email, to: newEmail }, emailVerified: { from: false, to: true } },
        actor: { id: user.id, email: newEmail },
      });
      assert.ok(!JSON.stringify(event).includes(url.searchParams.get('token') as string), 'never the link');
    });

    it('when the address change fails after the event, then the account keeps its address and no event is kept', async () => {
      const { models, store, logger } = ctx();
      const { user } = await createUserWithToken('viewer');
      const lifecycle = createAccountLifecycleService({
        ...c,
        checkPassword: async () => assert.fail('confirming a link asks for no password'),
        credentials: c.credentialSet,
        links: c.emailLinks,
        mailsPerEmail: createEmailQuota({ store, logger, name: 'event-transactions-test' }),
        events: failing,
      });
      const link = new URL(await c.emailLinks.create(user.id, 'change', { newEmail: uniqueEmail('not-moved'), sessionId: null }));
      await assert.rejects(lifecycle.confirmEmailChange(link.searchParams.get('token') as string, CONTEXT), new RegExp(AFTER_THE_EVENT));
      assert.equal((await models.User.findByPk(user.id, { rejectOnEmpty: true })).email, user.email);
      assert.equal((await rows('user.updated', user.id)).length, 0);
    });
  });
});
