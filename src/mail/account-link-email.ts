import { escapeHtml } from './html';
import type { RenderedEmail } from './otp-email';

/** The two links of CONTRACT 12: prove the account's address, or confirm a move to a new one. */
export type AccountLinkKind = 'verify' | 'change';

const WORDING: Record<AccountLinkKind, { subject: string; heading: string; lead: (email: string) => string; button: string; ignore: string }> = {
  verify: {
    subject: 'Confirm your email address',
    heading: 'Confirm your email address',
    lead: (email) => `An account was created with this address (${email}). Confirm that it is yours.`,
    button: 'Confirm my address',
    ignore:
      'If you did not create this account, do not open the link: ignore this message, or sign in with a one-time code or ' +
      'a sign-in link to this address, which makes the account yours and removes any password someone else set.',
  },
  change: {
    subject: 'Confirm your new email address',
    heading: 'Confirm your new email address',
    lead: (email) => `Someone asked to move an account to this address (${email}). Confirm to make the change.`,
    button: 'Use this address',
    ignore: 'If you did not ask for this, ignore this message: nothing changes without this link.',
  },
};

/**
 * A verification or change-confirmation mail (CONTRACT 7 rules: a button and the bare link, how long it is
 * valid, that it works once, what to do if it was not you). The link is built by the caller from BASE_URL.
 */
export function renderAccountLinkEmail(kind: AccountLinkKind, link: { url: string; email: string; expiresInHours: number }): RenderedEmail {
  const words = WORDING[kind];
  const url = escapeHtml(link.url);
  const expiry = `This link expires in ${link.expiresInHours} hours and can be used once.`;
  const html =
    '<!doctype html><html><body style="margin:0;padding:24px;background:#f6f7f9;font-family:Arial,Helvetica,sans-serif;color:#1f2328">' +
    '<div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;text-align:center">' +
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(words.heading)}</h1>` +
    `<p style="margin:0 0 24px">${escapeHtml(words.lead(link.email))}</p>` +
    `<p style="margin:0 0 24px"><a href="${url}" style="display:inline-block;padding:12px 24px;background:#1f6feb;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">${escapeHtml(words.button)}</a></p>` +
    `<p style="margin:0 0 8px;color:#57606a">${escapeHtml(expiry)}</p>` +
    `<p style="margin:0 0 8px;font-size:12px;color:#57606a;word-break:break-all">Or open this address: <a href="${url}">${url}</a></p>` +
    `<p style="margin:24px 0 0;font-size:12px;color:#57606a">${escapeHtml(words.ignore)}</p>` +
    '</div></body></html>';
  const text = [words.lead(link.email), '', `${words.button}:`, link.url, '', expiry, '', words.ignore, ''].join('\n');
  return { subject: words.subject, html, text };
}
