import type { Request } from 'express';
import type { TwoFactorService } from '../services/security/two-factor.service';

/** The admin page where a user held to enrolment sets up their second factor. */
export const ENROLMENT_PAGE = '/admin/profile/two-factor';

export const TWO_FACTOR_GATE_MESSAGES = {
  required: 'Two-factor enrolment required',
} as const;

/**
 * What a user held to enrolment may still reach (CONTRACT 9): who they are, the second-factor and passkey
 * routes, sign-out, step-up (enrolment is a step-up action, so an older sign-in must be able to prove
 * itself again) and the enrolment page itself. Matched on the whole path in any case, trailing slashes
 * allowed, by one expression that copies nothing: every signed-in request passes here.
 */
const OPEN_PATH = new RegExp(
  `^(?:/auth/(?:me|logout|step-up)/*|/auth/(?:2fa|passkeys)(?:/.*)?|${ENROLMENT_PAGE}(?:/.*)?)$`,
  'i',
);

/** Why a signed-in request is refused before its route runs: the answer for JSON clients and the page browsers go to. */
export interface GateRefusal {
  status: 403;
  message: string;
  page: string;
}

/** A check the guards run on every signed-in request, after the credential and before the route. */
export type SignedInGate = (req: Request) => Promise<GateRefusal | null>;

function isOpen(req: Request): boolean {
  return OPEN_PATH.test(req.baseUrl + req.path);
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
