import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Container } from '../container';
import { AppError } from '../http/app-error';
import { requestContext } from '../http/request-context';
import { withNotice } from '../http/notices';
import type { AccountActor } from '../services/accounts/account-lifecycle.service';
import { ACCOUNT_LIFECYCLE_MESSAGES } from '../services/accounts/account-lifecycle.service';
import { EMAIL_VERIFICATION_MESSAGES } from '../services/accounts/email-verification.service';
import type { EmailChangeBody, PasswordChangeBody } from '../schemas/account.schemas';

const SIGN_IN_PAGE = '/auth/login';

/** The signed-in user, the session of this request and where it came from. */
export function actorOf(req: Request): AccountActor {
  return { userId: (req.user as Express.User).id, sessionId: req.tokenClaims?.sid, context: requestContext(req) };
}

/** Who changes their password: the session that asks goes on, its sign-in time unchanged. */
export function passwordActor(req: Request): { userId: string; sessionId: string | undefined; authTime: number | undefined } {
  return { userId: (req.user as Express.User).id, sessionId: req.tokenClaims?.sid, authTime: req.tokenClaims?.auth_time };
}

/** Handlers of CONTRACT 12's /auth routes; the route schemas have parsed the input. */
export function createAccountController(container: Container) {
  const { emailVerification, lifecycle, cookies, sessions, account, tokens } = container;

  /** A link arrives by a click: always a redirect to the sign-in page with a notice, never a JSON body. */
  const verifyEmail: RequestHandler = async (req, res) => {
    const ok = await emailVerification.verifyLink(String(req.query.token), requestContext(req));
    res.redirect(302, withNotice(SIGN_IN_PAGE, ok ? 'email_verified' : 'email_link_invalid'));
  };

  const confirmEmail: RequestHandler = async (req, res) => {
    const ok = await lifecycle.confirmEmailChange(String(req.query.token), requestContext(req));
    res.redirect(302, withNotice(SIGN_IN_PAGE, ok ? 'email_changed' : 'email_link_invalid'));
  };

  /**
   * A link that cannot be used, malformed ones included, ends on the sign-in page with the one message
   * (CONTRACT 12: tampered, reused or expired alike). Outages stay 5xx pages; a rate limit stays a 429 (the link is unspent).
   */
  const linkFailed: ErrorRequestHandler = (err, req, res, next) => {
    if (!(err instanceof AppError) || err.status >= 500 || err.status === 429 || req.method !== 'GET') return next(err);
    res.redirect(302, withNotice(SIGN_IN_PAGE, 'email_link_invalid'));
  };

  const resendVerification: RequestHandler = async (req, res) => {
    await emailVerification.resend(actorOf(req).userId);
    res.json({ message: EMAIL_VERIFICATION_MESSAGES.resent });
  };

  const changeEmail: RequestHandler = async (req, res) => {
    const body = req.body as EmailChangeBody;
    await lifecycle.requestEmailChange(actorOf(req), { newEmail: body.newEmail, currentPassword: body.currentPassword });
    res.json({ message: ACCOUNT_LIFECYCLE_MESSAGES.changeRequested });
  };

  /** The account goes, and with it this browser's cookies and server session. */
  const deleteAccount: RequestHandler = async (req, res) => {
    await lifecycle.deleteOwnAccount(actorOf(req));
    cookies.clear(res);
    await sessions.end(req, res);
    res.status(204).end();
  };

  /** POST /auth/password (CONTRACT 18): a token for the same session; every other session ends. */
  const changePassword: RequestHandler = async (req, res) => {
    const body = req.body as PasswordChangeBody;
    const { user, session } = await account.changePassword(passwordActor(req), body.currentPassword, body.newPassword, requestContext(req));
    const issued = await tokens.issue(user, session);
    cookies.set(res, issued);
    res.json({ token: issued.token });
  };

  const exportAccount: RequestHandler = async (req, res) => {
    const data = await lifecycle.exportAccount(actorOf(req));
    res.set('Content-Disposition', 'attachment; filename="account-export.json"').json(data);
  };

  return { verifyEmail, confirmEmail, linkFailed, resendVerification, changeEmail, changePassword, deleteAccount, exportAccount };
}
