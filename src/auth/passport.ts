import { Passport } from 'passport';
import { createLocalStrategy } from './local.strategy';
import type { PasswordLogin } from './password-login';
import { OtpStrategy } from './otp.strategy';
import type { OtpService } from '../services/otp.service';

/** Strategy names, so routes never spell them twice. */
export const STRATEGY = { local: 'local', otp: 'otp' } as const;

/**
 * The one place strategies are registered. Access tokens are not among them: every guard checks them
 * directly (`createTokenCheck`, jwt.strategy.ts), the hottest path of the service. Each app gets its own Passport instance (not the module
 * singleton), so two apps in one process never share strategies. No server sessions: tokens are stateless.
 */
export function createPassport(deps: { passwordLogin: PasswordLogin; otp: Pick<OtpService, 'verify'> }): InstanceType<typeof Passport> {
  const passport = new Passport();
  passport.use(STRATEGY.local, createLocalStrategy(deps.passwordLogin));
  passport.use(STRATEGY.otp, new OtpStrategy(deps.otp));
  return passport;
}

export type AuthPassport = InstanceType<typeof Passport>;
