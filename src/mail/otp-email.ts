import type { OtpLoginSettings } from '../plugins/otp-login.plugin';
import { isCssColor } from '../plugins/otp-login.plugin';
import { escapeHtml } from './html';

/** The settings the code mail is drawn from (a saved plugin's, or the admin form's while it is edited). */
export type OtpEmailSettings = Pick<
  OtpLoginSettings,
  'codeExpiryMinutes' | 'maxAttempts' | 'logoUrl' | 'logoWidth' | 'logoBorderWidth' | 'logoBorderColor' | 'loginUrl' | 'loginButtonText'
>;

/** What one mail is about: the real code, or a sample one for the admin preview. */
export interface OtpEmailSample {
  code: string;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const OTP_EMAIL_SUBJECT = 'Your login code';
const DEFAULT_BUTTON_TEXT = 'Sign in';
const DEFAULT_BORDER_COLOR = '#ffffff';

function isHttpUrl(value: string | undefined): value is string {
  return typeof value === 'string' && /^https?:\/\//i.test(value) && URL.canParse(value);
}

/** A whole number kept inside its range (the preview may draw values the form has not validated yet). */
function clamp(value: unknown, min: number, max: number, fallback: number): number {
  const number = typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : fallback;
  return Math.min(max, Math.max(min, number));
}

/**
 * The logo's inline style: its width, and a solid border with a matching corner radius (twice the
 * border width) only when the border width is above 0 (SPEC 2.7: 0 disables it).
 */
function logoStyle(settings: OtpEmailSettings): string {
  const width = clamp(settings.logoWidth, 20, 600, 150);
  const border = clamp(settings.logoBorderWidth, 0, 20, 0);
  const parts = [`width:${width}px`, 'max-width:100%', 'height:auto', 'display:block', 'margin:0 auto 24px'];
  if (border > 0) {
    const color = typeof settings.logoBorderColor === 'string' && isCssColor(settings.logoBorderColor) ? settings.logoBorderColor : DEFAULT_BORDER_COLOR;
    parts.push(`border:${border}px solid ${color}`, `border-radius:${border * 2}px`);
  }
  return parts.join(';');
}

/**
 * The one-time-code mail (CONTRACT 7): the code large and monospaced, its expiry and the attempts
 * allowed, the branded logo, and a sign-in button when `loginUrl` is set. Used for the real mail and
 * for the admin page's live preview, so the two cannot differ. Every value is escaped, and only
 * http(s) URLs and checked colours reach the markup, whatever the settings hold.
 */
export function renderOtpEmail(settings: OtpEmailSettings, sample: OtpEmailSample): RenderedEmail {
  const minutes = clamp(settings.codeExpiryMinutes, 5, 60, 10);
  const attempts = clamp(settings.maxAttempts, 3, 10, 3);
  const code = escapeHtml(sample.code);
  const buttonText = settings.loginButtonText?.trim() || DEFAULT_BUTTON_TEXT;
  const loginUrl = isHttpUrl(settings.loginUrl) ? settings.loginUrl : undefined;
  const expiry = `This code expires in ${minutes} minute${minutes === 1 ? '' : 's'} and can be tried ${attempts} times.`;
  const ignore = 'If you did not ask for this code, you can ignore this message.';

  const logo = isHttpUrl(settings.logoUrl) ? `<img src="${escapeHtml(settings.logoUrl)}" alt="" width="${clamp(settings.logoWidth, 20, 600, 150)}" style="${logoStyle(settings)}">` : '';
  const button = loginUrl
    ? `<p style="margin:24px 0 0"><a href="${escapeHtml(loginUrl)}" style="display:inline-block;padding:12px 24px;background:#1f6feb;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">${escapeHtml(buttonText)}</a></p>`
    : '';
  const html =
    '<!doctype html><html><body style="margin:0;padding:24px;background:#f6f7f9;font-family:Arial,Helvetica,sans-serif;color:#1f2328">' +
    '<div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;text-align:center">' +
    logo +
    '<h1 style="font-size:20px;margin:0 0 16px">Your login code</h1>' +
    `<p style="margin:0 0 8px">Enter this code to sign in:</p>` +
    `<p class="otp-code" style="font-family:'SFMono-Regular',Consolas,'Liberation Mono',Menlo,monospace;font-size:36px;font-weight:700;letter-spacing:8px;margin:16px 0">${code}</p>` +
    `<p style="margin:0;color:#57606a">${escapeHtml(expiry)}</p>` +
    button +
    `<p style="margin:24px 0 0;font-size:12px;color:#57606a">${escapeHtml(ignore)}</p>` +
    '</div></body></html>';

  const text = [`Your login code: ${sample.code}`, '', expiry, ...(loginUrl ? ['', `${buttonText}: ${loginUrl}`] : []), '', ignore, ''].join('\n');
  return { subject: OTP_EMAIL_SUBJECT, html, text };
}
