import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { PASSKEY_MESSAGES, type PasskeyService } from '../services/sign-in-methods/passkey.service';
import type { SignInInfo } from './sign-in-result';

/**
 * Sign-in with a passkey, in the shape of passport-local: read the validated `response` (the browser's
 * assertion), let the passkey service judge it, then `success` with method `passkey`, or `fail` with the one
 * 401 body every refusal shares (the reason goes to the activity row only), or `error`.
 */
export class PasskeyStrategy extends Strategy {
  readonly name = 'passkey';

  constructor(private readonly passkeys: Pick<PasskeyService, 'verifyLogin'>) {
    super();
  }

  override authenticate(req: Request): void {
    const { response } = req.body as { response: AuthenticationResponseJSON };
    this.passkeys.verifyLogin(response).then(
      (result) => {
        if (result.ok) {
          // A passkey that verified its holder (PIN, biometrics) is two factors in one (something owned, something
          // known or been): it satisfies the second step (CONTRACT 9). Without verification, a user with a second
          // factor is asked for it as after any other first factor.
          const info: SignInInfo = {
            method: 'passkey',
            details: { passkeyId: result.passkeyId, userVerified: result.userVerified },
            ...(result.userVerified ? { secondFactor: 'passkey' } : {}),
          };
          return this.success(result.user, info);
        }
        this.fail(
          {
            message: PASSKEY_MESSAGES.signInFailed,
            audit: { action: 'auth.login_failed', userId: result.userId, email: result.email, details: { method: 'passkey', reason: result.reason } },
          },
          401,
        );
      },
      (err: unknown) => this.error(err as Error),
    );
  }
}
