import assert from 'node:assert/strict';
import type { Request } from 'express';
import { createTwoFactorGate, ENROLMENT_PAGE } from '../../src/middleware/two-factor-gate';

/** A user held to enrolment asking for `path` (mounted at `baseUrl`): refused (true) or let through. */
async function refused(baseUrl: string, path: string): Promise<boolean> {
  const gate = createTwoFactorGate({ twoFactor: { mustEnrol: async () => true } });
  const req = { user: { id: 'u1', role: 'editor' }, baseUrl, path } as unknown as Request;
  return (await gate(req)) !== null;
}

describe('two-factor enrolment gate: the paths left open (CONTRACT 9)', () => {
  it('when a user held to enrolment asks for who they are, the second-factor and passkey routes, sign-out, step-up or the enrolment page, then it is open in any case and with trailing slashes', async () => {
    const open: Array<[string, string]> = [
      ['/auth', '/me'], ['/auth', '/me/'], ['/AUTH', '/Me'], ['/auth', '/logout'], ['/auth', '/step-up//'],
      ['/auth', '/2fa'], ['/auth', '/2fa/'], ['/auth', '/2fa/totp/setup'], ['/auth/2fa/passkey', '/options'],
      ['/auth/passkeys', '/'], ['/auth/passkeys', '/register/options'],
      ['/admin', '/profile/two-factor'], ['/admin', '/profile/Two-Factor/confirm'], ['', ENROLMENT_PAGE],
    ];
    for (const [baseUrl, path] of open) assert.equal(await refused(baseUrl, path), false, `${baseUrl}${path}`);
  });

  it('when the path only looks like an open one, then it is refused like every other route', async () => {
    const closed: Array<[string, string]> = [
      ['/auth', '/meow'], ['/auth', '/me/sessions'], ['/auth', '/logout-all'], ['/auth', '/2faX'], ['/auth', '/passkeys-x'],
      ['/auth', '/sessions'], ['/api', '/auth/me'], ['/admin', '/profile'], ['/admin', '/profile/two-factors'], ['/x/auth', '/me'],
    ];
    for (const [baseUrl, path] of closed) assert.equal(await refused(baseUrl, path), true, `${baseUrl}${path}`);
  });
});
