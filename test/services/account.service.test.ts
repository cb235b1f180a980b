import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Transaction } from 'sequelize';
import { ctx } from '../support/context';
import { PASSWORD, makeUser } from '../support/auth';
import { createAccountService } from '../../src/services/accounts/account.service';
import { createPasswordService } from '../../src/credentials/password.service';
import { createActivityService } from '../../src/services/operations/activity.service';
import { createAccountThrottle } from '../../src/credentials/account-throttle';
import { createPasswordCheck } from '../../src/credentials/password-check';
import { createCredentialSet } from '../../src/services/security/credential-set/credential-set';
import { createCredentialKinds } from '../../src/services/security/credential-set/credential-kinds';
import { PASSWORD_QUALITY_MESSAGES } from '../../src/credentials/password-quality';

function service() {
  const { sequelize, models, config, logger, store } = ctx();
  const revoked: string[] = [];
  const passwords = createPasswordService({ iterations: config.passwordIterations });
  const account = createAccountService({
    sequelize,
    models,
    passwords,
    // No endpoint listens in these tests: the event is not what they are about.
    events: { recordForUser: async () => undefined },
    checkPassword: createPasswordCheck({ passwords, throttle: createAccountThrottle({ store, logger }), deviceThrottle: createAccountThrottle({ store, logger, name: 'device-throttle' }) }),
    credentials: createCredentialSet({
      sequelize,
      models,
      kinds: createCredentialKinds({
        models,
        tokens: {
          revokeAllForUser: async (userId: string, options: { transaction?: Transaction } = {}) => {
            revoked.push(userId);
            await models.User.increment('tokenEpoch', { by: 1, where: { id: userId }, transaction: options.transaction });
          },
        },
        revocations: { revoke: async () => undefined },
      }),
      notices: { send: () => undefined },
    }),
    userSessions: { start: async () => ({ sid: crypto.randomUUID(), authTime: Math.floor(Date.now() / 1000) }) },
    activity: createActivityService({ sequelize, models, logger }),
  });
  return { account, revoked };
}

const context = { ip: '127.0.0.1', userAgent: 'test' };
const actor = (userId: string) => ({ userId, sessionId: undefined, authTime: undefined });

describe('account service: change password', () => {
  it('when the current password is wrong, then a field error and nothing changes', async () => {
    const user = await makeUser();
    const { account, revoked } = service();
    await assert.rejects(account.changePassword(actor(user.id), 'wrong one', 'a new password', context), (err: Error & { options?: { errors?: Record<string, string> } }) => {
      assert.deepEqual(err.options?.errors, { currentPassword: 'is not your current password' });
      return true;
    });
    assert.deepEqual(revoked, []);
  });

  it('when the new password is the account\'s username, then a field error naming newPassword and nothing changes', async () => {
    const user = await makeUser();
    const { account, revoked } = service();
    await assert.rejects(account.changePassword(actor(user.id), PASSWORD, user.username, context), (err: Error & { options?: { errors?: Record<string, string> } }) => {
      assert.deepEqual(err.options?.errors, { newPassword: PASSWORD_QUALITY_MESSAGES.personal });
      return true;
    });
    assert.deepEqual(revoked, []);
  });

  it('when changed, then the hash is replaced, every session is revoked and the user comes back with the new epoch', async () => {
    const user = await makeUser();
    const { account, revoked } = service();
    const { user: after } = await account.changePassword(actor(user.id), PASSWORD, 'a new password', context);
    assert.notEqual(after.passwordHash, user.passwordHash);
    assert.equal(after.tokenEpoch, user.tokenEpoch + 1);
    assert.deepEqual(revoked, [user.id]);
  });

  it('when two changes race with the same current password, then exactly one wins', async () => {
    const user = await makeUser();
    const { account } = service();
    const results = await Promise.allSettled([
      account.changePassword(actor(user.id), PASSWORD, 'first new password', context),
      account.changePassword(actor(user.id), PASSWORD, 'second new password', context),
    ]);
    assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1);
  });
});
