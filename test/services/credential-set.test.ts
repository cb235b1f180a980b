import assert from 'node:assert/strict';
import { ctx } from '../support/context';
import { CREDENTIAL_KIND_NAMES, NOT_CREDENTIALS, createCredentialKinds } from '../../src/services/security/credential-set/credential-kinds';
import { CREDENTIAL_EVENTS } from '../../src/services/security/credential-set/credential-set';

/** CONTRACT 18: every credential kind is in the registry, and the table of events names only registered kinds. */
describe('credential registry (CONTRACT 18)', () => {
  const kinds = () => createCredentialKinds({ models: ctx().models, tokens: { revokeAllForUser: async () => undefined }, revocations: { revoke: async () => undefined } });

  it('when a table belongs to a user, then it is a registered credential kind\'s or named as no credential (a new kind that does not register fails here)', () => {
    const claimed = new Set([...Object.values(kinds()).flatMap((kind) => kind.tables), ...NOT_CREDENTIALS]);
    const owned = Object.values(ctx().sequelize.models)
      .filter((model) => Object.values(model.getAttributes()).some((attribute) => attribute.field === 'user_id'))
      .map((model) => model.getTableName() as string);
    assert.ok(owned.length >= 8, `found the user-owned tables: ${owned.join(', ')}`);
    const unclaimed = owned.filter((table) => !claimed.has(table));
    assert.deepEqual(unclaimed, [], 'register these as credential kinds (src/services/security/credential-set/credential-kinds.ts) or name them in NOT_CREDENTIALS');
  });

  it('when the registry is built, then every kind name has its kind, and deletion ends them all', () => {
    assert.deepEqual(Object.keys(kinds()).sort(), [...CREDENTIAL_KIND_NAMES].sort());
    assert.deepEqual([...CREDENTIAL_EVENTS.deletion.ends].sort(), [...CREDENTIAL_KIND_NAMES].sort());
  });

  it('when the squatter rule applies, then every kind a stranger could have added ends', () => {
    assert.deepEqual(
      [...CREDENTIAL_EVENTS['address-proven-on-unverified'].ends].sort(),
      ['api-keys', 'linked-accounts', 'oidc-grants', 'passkeys', 'password', 'second-factors', 'sessions'],
    );
  });
});
