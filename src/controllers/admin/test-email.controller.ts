import type { RequestHandler } from 'express';
import type { Container } from '../../container';
import { escapeHtml } from '../../mail/html';
import { withNotice } from '../../http/notices';
import { MAIL_NOT_CONFIGURED } from '../../services/operations/mailer';

const PAGE_PATH = '/admin/plugins/email';
const SUBJECT = 'Test email from the auth service';

/**
 * `POST /admin/plugins/email/test`: sends a test mail to the signed-in admin through the mail settings
 * in force (SMTP_URL, else the saved email plugin), and comes back to the page with the outcome: the
 * recipient, or one of the mailer's fixed failure texts (never the remote answer: no probing hosts).
 */
export function createTestEmailAction({ mailer, config }: Container): RequestHandler {
  return async (req, res) => {
    const { email } = req.user as Express.User;
    const sentAt = new Date().toISOString();
    const text = `This test email was sent from the admin site of ${config.baseUrl} at ${sentAt}. Mail delivery works.`;
    const result = await mailer.deliver({ to: email, subject: SUBJECT, text: `${text}\n`, html: `<p>${escapeHtml(text)}</p>` });
    if (result.sent) return res.redirect(303, withNotice(PAGE_PATH, 'test_email_sent'));
    res.redirect(303, withNotice(PAGE_PATH, result.error === MAIL_NOT_CONFIGURED ? 'test_email_not_configured' : 'test_email_failed'));
  };
}
