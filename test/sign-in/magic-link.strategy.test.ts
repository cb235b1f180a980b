import assert from 'node:assert/strict';
import type { Request } from 'express';
import { MagicLinkStrategy } from '../../src/sign-in/magic-link.strategy';
import type { MagicLinkResult } from '../../src/services/sign-in-methods/magic-link.service';
import type { AuthUser } from '../../src/sessions/auth-user';

type Outcome = { kind: 'success'; user: unknown; info: unknown } | { kind: 'fail'; challenge: unknown; status?: number } | { kind: 'error'; err: unknown };

/** Runs the strategy the way Passport does (success/fail/error are attached per request). */
function run(result: Promise<MagicLinkResult>, query: Record<string, string>): Promise<Outcome> {
  const strategy = new MagicLinkStrategy({ consume: () => result });
  return new Promise((resolve) => {
    const s = strategy as unknown as Record<string, unknown>;
    s.success = (user: unknown, info: unknown) => resolve({ kind: 'success', user, info });
    s.fail = (challenge: unknown, status?: number) => resolve({ kind: 'fail', challenge, status });
    s.error = (err: unknown) => resolve({ kind: 'error', err });
    strategy.authenticate({ query } as unknown as Request);
  });
}

const user = { id: 'u1', email: 'a@example.test', role: 'viewer' } as AuthUser;

describe('MagicLinkStrategy', () => {
  const claimed = async () => true;

  it('when the service accepts the token, then success carries the user, the method and the callbackURL for the session step', async () => {
    const outcome = await run(Promise.resolve({ ok: true, user, created: false, claim: claimed }), { token: 't', callbackURL: '/admin/profile' });
    assert.equal(outcome.kind, 'success');
    const { spend, ...info } = (outcome as { info: { spend: () => Promise<unknown> } }).info;
    assert.deepEqual({ ...outcome, info }, { kind: 'success', user, info: { method: 'magic_link', details: {}, redirect: '/admin/profile' } });
    assert.equal(await spend(), null);
  });

  it('when the service creates the account, then the activity details say so', async () => {
    const outcome = await run(Promise.resolve({ ok: true, user, created: true, claim: claimed }), { token: 't' });
    assert.equal(outcome.kind, 'success');
    const { details, redirect } = (outcome as { info: { details: unknown; redirect: unknown } }).info;
    assert.deepEqual({ details, redirect }, { details: { created: true, role: 'viewer' }, redirect: null });
  });

  it('when a parallel click claimed the link first, then spending it is the one public refusal, audited as already used', async () => {
    const outcome = await run(Promise.resolve({ ok: true, user, created: false, claim: async () => false }), { token: 't' });
    const refusal = (await (outcome as { info: { spend: () => Promise<{ message: string; audit: { details: unknown } }> } }).info.spend())!;
    assert.equal(refusal.message, 'This sign-in link is invalid or has expired. Please ask for a new one.');
    assert.deepEqual(refusal.audit.details, { method: 'magic_link', reason: 'already_used' });
  });

  it('when the service refuses, then fail 401 with one public message and the reason only in the audit row', async () => {
    const outcome = await run(Promise.resolve({ ok: false, reason: 'revoked', email: 'a@example.test', userId: 'u1' }), { token: 't' });
    assert.equal(outcome.kind, 'fail');
    const { challenge, status } = outcome as { challenge: { message: string; audit: { details: unknown } }; status: number };
    assert.equal(status, 401);
    assert.equal(challenge.message, 'This sign-in link is invalid or has expired. Please ask for a new one.');
    assert.deepEqual(challenge.audit.details, { method: 'magic_link', reason: 'revoked' });
  });

  it('when the service throws, then error (not a refusal)', async () => {
    const boom = new Error('database down');
    assert.deepEqual(await run(Promise.reject(boom), { token: 't' }), { kind: 'error', err: boom });
  });
});
