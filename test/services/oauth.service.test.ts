import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { ctx, resetDatabase, uniqueEmail } from '../support/context';
import { makeUser } from '../support/auth';
import { OAuthProviderStandIn, enableBoth } from '../support/oauth-provider';
import { createOAuthService } from '../../src/services/sign-in-methods/oauth.service';
import { createOAuthProviders, type OAuthIdentity } from '../../src/oauth/oauth-providers';
import { createUserService } from '../../src/services/accounts/user.service';
import { createSettingsService } from '../../src/services/operations/settings.service';
import { createActivityService } from '../../src/services/operations/activity.service';
import { createPluginRegistry } from '../../src/services/operations/plugin-registry';
import { createPasswordService } from '../../src/credentials/password.service';
import { createProfileService } from '../../src/services/accounts/profile.service';
import { EMPTY_PROFILE_DEFINITION } from '../../src/profiles/profile-types';
import { AppError } from '../../src/http/app-error';
import type { TokenService } from '../../src/sessions/token.service';
import type { User } from '../../src/models';

const CONTEXT = { ip: '127.0.0.1', userAgent: 'test' };

/** Who starts a linking flow: the user on their current token epoch. */
function starter(user: User): { userId: string; tokenEpoch: number } {
  return { userId: user.id, tokenEpoch: user.tokenEpoch };
}

function service() {
  const { config, models, sequelize, logger, store } = ctx();
  const activity = createActivityService({ sequelize, models, logger });
  const plugins = createPluginRegistry({ models, activity });
  const profiles = createProfileService({ definition: EMPTY_PROFILE_DEFINITION, models, tokens: {} as TokenService, activity, events: { record: async () => undefined } });
  const settings = createSettingsService({ config, models, activity, store, logger });
  const users = createUserService({ sequelize, models, passwords: createPasswordService({ iterations: config.passwordIterations }), profiles, settings });
  const providers = createOAuthProviders({ config, plugins, store });
  return createOAuthService({ sequelize, models, users, activity, providers, notices: { send: () => undefined }, verification: { proven: async () => ({ changed: false, passwordCleared: false }) } });
}

function identity(overrides: Partial<OAuthIdentity> = {}): OAuthIdentity {
  return {
    provider: 'github',
    providerAccountId: crypto.randomUUID(),
    email: uniqueEmail('svc'),
    emailVerified: true,
    name: 'Service Person',
    avatarUrl: null,
    ...overrides,
  };
}

describe('OAuth service', () => {
  let stand: OAuthProviderStandIn;
  before(async () => {
    stand = await new OAuthProviderStandIn().start();
  });
  after(async () => {
    await stand.stop();
  });
  beforeEach(async () => {
    await enableBoth(stand);
  });

  it('when the same new person arrives in parallel callbacks, then exactly one user and one link are created and all sign in as it', async () => {
    await makeUser();
    const oauth = service();
    const person = identity();

    const outcomes = await Promise.all([1, 2, 3, 4].map(() => oauth.signIn(person, CONTEXT)));

    assert.ok(outcomes.every((outcome) => outcome.ok));
    const ids = new Set(outcomes.map((outcome) => outcome.user!.id));
    assert.equal(ids.size, 1);
    assert.equal(await ctx().models.User.count({ where: { email: person.email! } }), 1);
    assert.equal(await ctx().models.OAuthAccount.count({ where: { providerAccountId: person.providerAccountId } }), 1);
  });

  it('when twenty first sign-ins race on an empty database, then exactly one becomes admin', async () => {
    await resetDatabase();
    await enableBoth(stand);
    const oauth = service();

    const outcomes = await Promise.all(Array.from({ length: 20 }, () => oauth.signIn(identity(), CONTEXT)));

    assert.ok(outcomes.every((outcome) => outcome.ok));
    assert.equal(await ctx().models.User.count({ where: { role: 'admin' } }), 1);
  });

  it('when a passwordless user unlinks both links at once, then exactly one unlink succeeds and one link remains', async () => {
    const oauth = service();
    const user = await makeUser({ password: null });
    assert.ok((await oauth.link(starter(user), identity({ provider: 'github' }), CONTEXT)).ok);
    assert.ok((await oauth.link(starter(user), identity({ provider: 'google' }), CONTEXT)).ok);

    const results = await Promise.allSettled([oauth.unlink(user.id, 'github', CONTEXT), oauth.unlink(user.id, 'google', CONTEXT)]);

    assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1);
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    assert.ok(refused.reason instanceof AppError && refused.reason.status === 400);
    assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: user.id } }), 1);
  });

  it('when two users link the same provider account at once, then exactly one gets it', async () => {
    const oauth = service();
    const [a, b] = [await makeUser(), await makeUser()];
    const person = identity();

    const outcomes = await Promise.all([oauth.link(starter(a), person, CONTEXT), oauth.link(starter(b), person, CONTEXT)]);

    assert.equal(outcomes.filter((outcome) => outcome.ok).length, 1);
    const refused = outcomes.find((outcome) => !outcome.ok);
    assert.equal(refused && !refused.ok && refused.reason, 'linked_to_other');
    assert.equal(await ctx().models.OAuthAccount.count({ where: { providerAccountId: person.providerAccountId } }), 1);
  });

  it('when the profile page asks, then linkedAccountsView lists linked accounts with labels and the enabled providers not yet linked', async () => {
    const oauth = service();
    const user = await makeUser();
    const person = identity({ provider: 'google' });
    await oauth.link(starter(user), person, CONTEXT);

    const view = await oauth.linkedAccountsView(user.id);

    assert.equal(view.accounts.length, 1);
    assert.deepEqual({ ...view.accounts[0], linkedAt: undefined }, { provider: 'google', label: 'Google', email: person.email, linkedAt: undefined });
    assert.ok(view.accounts[0].linkedAt instanceof Date);
    assert.deepEqual(view.linkable, [{ name: 'github', label: 'GitHub' }]);

    await ctx().models.Plugin.update({ active: false }, { where: { name: 'oauth-providers' } });
    assert.deepEqual((await oauth.linkedAccountsView(user.id)).linkable, []);
  });

  it('when an identity has no verified email, then nothing is created, and an existing account is not linked', async () => {
    const oauth = service();
    const user = await makeUser();
    const outcome = await oauth.signIn(identity({ email: user.email, emailVerified: false }), CONTEXT);
    assert.deepEqual(outcome, { ok: false, reason: 'unverified_email', user: null });
    assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: user.id } }), 0);
  });
});
