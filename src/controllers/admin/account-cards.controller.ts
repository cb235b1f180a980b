import type { Request, RequestHandler } from 'express';
import type { Container } from '../../container';
import { AppError } from '../../http/app-error';
import { formPost, keptValues, type FormRedraw } from '../../http/pages';
import { withNotice } from '../../http/notices';
import { parseOrThrow } from '../../http/validate';
import { emailChangeBody } from '../../schemas/account.schemas';
import { actorOf } from '../account.controller';
import { accountPage } from '../../http/account-sections';
import type { AccountCenter } from './account-center';
import { formFields, lastValue } from './form-input';

const MESSAGES = {
  emailNotChanged: 'Your email address was not changed.',
  notDeleted: 'Your account was not deleted.',
  confirm: 'tick the box to confirm',
} as const;

/**
 * The account cards (CONTRACT 12) as forms: resend the verification link and change email (on `/admin/profile`),
 * delete the account (on `/admin/profile/data`). Each goes through the same service call as the JSON API; a
 * refusal redraws the card's section with the card's own errors (their field names would clash with the
 * password card's).
 */
export function createAccountCardsController(container: Container, center: AccountCenter) {
  const { emailVerification, lifecycle, cookies, sessions } = container;

  const resendVerification: RequestHandler = async (req, res) => {
    await emailVerification.resend(actorOf(req).userId);
    res.redirect(303, withNotice(accountPage('profile'), 'verification_sent'));
  };

  const redrawEmailChange: FormRedraw = (req: Request, res, failure) =>
    center.draw('profile', req, res, failure.status, {
      emailChange: { values: keptValues(req.body), errors: failure.errors },
      error: failure.status === 429 ? `${MESSAGES.emailNotChanged} ${failure.error}` : MESSAGES.emailNotChanged,
    });

  const changeEmail = formPost(async (req, res) => {
    const input = await parseOrThrow(emailChangeBody, formFields(req.body, ['newEmail', 'currentPassword']));
    await lifecycle.requestEmailChange(actorOf(req), input);
    res.redirect(303, withNotice(accountPage('profile'), 'email_change_requested'));
  }, redrawEmailChange);

  const redrawDeletion: FormRedraw = (req, res, failure) =>
    center.draw('data', req, res, failure.status, { deletion: { errors: failure.errors }, error: failure.status === 409 ? failure.error : MESSAGES.notDeleted });

  /** After the confirmation box: the account goes, and this browser is signed out. */
  const deleteAccount = formPost(async (req, res) => {
    if (lastValue(req.body, 'confirm') !== 'yes') throw AppError.validation({ confirm: MESSAGES.confirm });
    await lifecycle.deleteOwnAccount(actorOf(req));
    cookies.clear(res);
    await sessions.end(req, res);
    res.redirect(303, withNotice('/auth/login', 'account_deleted'));
  }, redrawDeletion);

  return { resendVerification, changeEmail, deleteAccount };
}
