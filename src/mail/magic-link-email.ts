import { escapeHtml } from './html';
import type { RenderedEmail } from './otp-email';

export const MAGIC_LINK_EMAIL_SUBJECT = 'Your sign-in link';

/**
 * The magic-link mail (CONTRACT 7): a button and the bare link (for clients that drop buttons), how
 * long it is valid and that it works once, in an HTML and a text part. The link is built by the caller
 * from BASE_URL; every value is escaped.
 */
export function renderMagicLinkEmail(link: { url: string; expiresInMinutes: number }): RenderedEmail {
  const url = escapeHtml(link.url);
  const expiry = `This link expires in ${link.expiresInMinutes} minutes and can be used once.`;
  const ignore = 'If you did not ask to sign in, you can ignore this message: nobody can sign in without this link.';
  const html =
    '<!doctype html><html><body style="margin:0;padding:24px;background:#f6f7f9;font-family:Arial,Helvetica,sans-serif;color:#1f2328">' +
    '<div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;text-align:center">' +
    '<h1 style="font-size:20px;margin:0 0 16px">Sign in</h1>' +
    '<p style="margin:0 0 24px">Use the button below to sign in.</p>' +
    `<p style="margin:0 0 24px"><a href="${url}" style="display:inline-block;padding:12px 24px;background:#1f6feb;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">Sign in</a></p>` +
    `<p style="margin:0 0 8px;color:#57606a">${escapeHtml(expiry)}</p>` +
    `<p style="margin:0 0 8px;font-size:12px;color:#57606a;word-break:break-all">Or open this address: <a href="${url}">${url}</a></p>` +
    `<p style="margin:24px 0 0;font-size:12px;color:#57606a">${escapeHtml(ignore)}</p>` +
    '</div></body></html>';
  const text = ['Sign in with this link:', link.url, '', expiry, '', ignore, ''].join('\n');
  return { subject: MAGIC_LINK_EMAIL_SUBJECT, html, text };
}
