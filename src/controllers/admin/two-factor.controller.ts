import type { Request, RequestHandler, Response } from 'express';
import { lazyModule } from '../../util/lazy-module';
import type { Container } from '../../container';
import { adminAudit, requestContext } from '../../http/request-context';
import { formPost, renderForm, type FormRedraw } from '../../http/pages';
import { withNotice } from '../../http/notices';
import { parseOrThrow } from '../../http/validate';
import { ENROLMENT_PAGE } from '../../middleware/two-factor-gate';
import { confirmBody } from '../../schemas/two-factor.schemas';
import { enrolling } from '../two-factor.controller';
import { accountNav } from '../../http/account-sections';

const TITLE = 'Two-factor authentication';

// Drawn only on the enrolment page: loaded there, not in every process at start.
const qrcode = lazyModule(() => require('qrcode') as typeof import('qrcode'));

/**
 * `/admin/profile/two-factor`: any signed-in user's enrolment page (CONTRACT 9). Setup shows the QR code
 * (SVG drawn here by `qrcode`, no script, no image request) and the secret as text; a code confirms it
 * and the recovery codes are shown this once. The users edit page's "Reset two-factor" lives here too.
 */
export function createTwoFactorPages(container: Container) {
  const { twoFactor, userAdmin } = container;
  const self = (req: Request) => req.user as Express.User;

  async function draw(req: Request, res: Response, status: number, state: Record<string, unknown>) {
    const owner = self(req);
    const [current, pending, held] = await Promise.all([twoFactor.status(owner.id), twoFactor.pendingSetup(enrolling(req)), twoFactor.mustEnrol(owner)]);
    const qrSvg = pending ? await qrcode().toString(pending.otpauthUrl, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }) : null;
    renderForm(res, 'admin/two-factor', status, { title: TITLE, accountNav: accountNav('security'), status: current, setup: pending ? { ...pending, qrSvg } : null, held, recoveryCodes: null, ...state });
  }

  const show: RequestHandler = (req, res) => draw(req, res, 200, {});

  /** The page shows a pending secret only to a recent sign-in (CONTRACT 9): an older one steps up first. */
  const pendingNeedsRecent = (recent: RequestHandler): RequestHandler => async (req, res, next) => {
    if (await twoFactor.pendingSetup(enrolling(req))) return recent(req, res, next);
    next();
  };

  const setup: RequestHandler = async (req, res) => {
    await twoFactor.beginSetup(enrolling(req));
    res.redirect(303, ENROLMENT_PAGE);
  };

  const redrawConfirm: FormRedraw = (req, res, failure) => draw(req, res, failure.status, { error: failure.error, errors: { code: failure.errors.code ?? failure.error } });

  const confirm = formPost(async (req, res) => {
    const { code } = await parseOrThrow(confirmBody, { code: (req.body as Record<string, unknown>).code ?? '' });
    const recoveryCodes = await twoFactor.confirm(enrolling(req), code, requestContext(req));
    await draw(req, res, 200, { recoveryCodes, message: 'Two-factor authentication is on.' });
  }, redrawConfirm);

  const regenerate = formPost(async (req, res) => {
    const recoveryCodes = await twoFactor.regenerateRecoveryCodes(self(req), requestContext(req));
    await draw(req, res, 200, { recoveryCodes, message: 'New recovery codes made: the old ones no longer work.' });
  }, (req, res, failure) => draw(req, res, failure.status, { error: failure.error }));

  const disable = formPost(async (req, res) => {
    await twoFactor.disable(self(req), requestContext(req));
    res.redirect(303, withNotice(ENROLMENT_PAGE, 'two_factor_disabled'));
  }, (req, res, failure) => draw(req, res, failure.status, { error: failure.error }));

  /** The users edit page's "Reset two-factor" (`manage:users`). */
  const reset: RequestHandler = async (req, res) => {
    const user = await userAdmin.get(req.params.id as string);
    await twoFactor.reset(user.id, adminAudit(req));
    res.redirect(303, withNotice(`/admin/users/${encodeURIComponent(user.id)}/edit`, 'two_factor_reset'));
  };

  return { show, pendingNeedsRecent, setup, confirm, regenerate, disable, reset };
}
