import type { Request } from 'express';
import type { TwoFactorService } from '../services/two-factor.service';

/** The admin page where a user held to enrolment sets up their second factor. */
export const ENROLMENT_PAGE = '/admin/profile/two-factor';

export const TWO_FACTOR_GATE_MESSAGES = {
  required: 'Two-factor enrolment required',
} as const;

/**
 * What a user held to enrolment may still reach (CONTRACT 9): who they are, the second-factor and passkey
 * routes, sign-out, step-up (enrolment is a step-up action, so an older sign-in must be able to prove
 * itself again) and the enrolment page itself. Matched on the lower-cased path without trailing slashes.
 */
const OPEN_PATHS: ReadonlySet<string> = new Set(['/auth/me', '/auth/logout', '/auth/step-up', '/auth/2fa', '/auth/passkeys', ENROLMENT_PAGE]);
const OPEN_PREFIXES: readonly string[] = ['/auth/2fa/', '/auth/passkeys/', `${ENROLMENT_PAGE}/`];

/** Why a signed-in request is refused before its route runs: the answer for JSON clients and the page browsers go to. */
export interface GateRefusal {
  status: 403;
  message: string;
  page: string;
}

/** A check the guards run on every signed-in request, after the credential and before the route. */
export type SignedInGate = (req: Request) => Promise<GateRefusal | null>;

function isOpen(req: Request): boolean {
  const path = (req.baseUrl + req.path).toLowerCase().replace(/\/+$/, '');
  return OPEN_PATHS.has(path) || OPEN_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * The enrolment gate of `requireTwoFactorRoles`: a user whose role the policy covers and who has no second
 * factor signs in as usual, but every other route answers 403 `Two-factor enrolment required` (admin
 * pages lead to the enrolment page) until they enrol. An empty policy costs one cached settings read.
 */
export function createTwoFactorGate(deps: { twoFactor: Pick<TwoFactorService, 'mustEnrol'> }): SignedInGate {
  return async (req) => {
    const user = req.user;
    if (!user || isOpen(req)) return null;
    if (!(await deps.twoFactor.mustEnrol(user))) return null;
    return { status: 403, message: TWO_FACTOR_GATE_MESSAGES.required, page: ENROLMENT_PAGE };
  };
}
