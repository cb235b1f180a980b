import type { RequestHandler } from 'express';
import type { Container } from '../../container';
import { renderOtpEmail, type OtpEmailSettings } from '../../mail/otp-email';
import { otpLoginPlugin } from '../../plugins/otp-login.plugin';
import { settingsFromForm } from '../../plugins/plugin-form';
import { ACCOUNT_THROTTLE, type AccountThrottleRule } from '../../credentials/account-throttle';

const SAMPLE_DIGITS = '12345678';
const DEFAULT_CODE_LENGTH = 6;

/** A sample code of the configured length (4–8; anything else shows the default length). */
function sampleCode(length: unknown): string {
  const valid = typeof length === 'number' && Number.isInteger(length) && length >= 4 && length <= 8;
  return SAMPLE_DIGITS.slice(0, valid ? length : DEFAULT_CODE_LENGTH);
}

const DAY_SECONDS = 24 * 60 * 60;
const HOUR_SECONDS = 60 * 60;

const positiveInt = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null);
const count = (n: number) => Math.max(1, Math.round(n)).toLocaleString('en-US');

/**
 * What a code-guessing attacker can reach with these settings, in words for the plugin page. Wrong codes
 * count in the per-account throttle, so one account gets at most `maxFailures` guesses per window (fewer
 * when maxAttempts × rateLimitPerHour is smaller); each guess hits one of 10^codeLength codes, so the
 * chance is at most guesses / 10^codeLength (a union bound: the figure shown is never optimistic).
 */
export function otpGuessOdds(settings: Record<string, unknown>, rule: Readonly<AccountThrottleRule> = ACCOUNT_THROTTLE): string {
  const length = sampleCode(settings.codeLength).length;
  const codes = 10 ** length;
  const maxAttempts = positiveInt(settings.maxAttempts);
  const perHour = positiveInt(settings.rateLimitPerHour);
  const byCodes = maxAttempts && perHour ? maxAttempts * perHour : Infinity;
  const perWindow = Math.min(rule.maxFailures, byCodes);
  const perDay = Math.min(perWindow * (DAY_SECONDS / rule.windowSeconds), byCodes * (DAY_SECONDS / HOUR_SECONDS));
  const minutes = Math.round(rule.windowSeconds / 60);
  return (
    `An attacker gets at most ${perWindow} guesses per ${minutes} minutes per account: about 1 in ${count(codes / perWindow)} ` +
    `per window for ${length}-digit codes (≈ 1 in ${count(codes / perDay)} per day).`
  );
}

/**
 * The code mail as the real template draws it from these (possibly not yet valid) settings. The admin
 * page shows the HTML only inside `<iframe sandbox srcdoc>`: whatever the settings hold, nothing in it
 * runs script or reaches the admin page.
 */
export function otpPreview(settings: Record<string, unknown>): { html: string; code: string } {
  const code = sampleCode(settings.codeLength);
  return { html: renderOtpEmail(settings as unknown as OtpEmailSettings, { code }).html, code };
}

/**
 * `POST /admin/plugins/otp-login/preview`: the OTP page's script posts the form as it is edited; the
 * answer is JSON `{ html, errors }`, the mail drawn from those values over the saved settings and the
 * errors the plugin's own schema finds in them (nothing is stored).
 */
export function createOtpPreviewEndpoint({ plugins }: Container): RequestHandler {
  return async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const { settings, errors } = await plugins.check('otp-login', settingsFromForm(otpLoginPlugin, body));
    res.json({ html: otpPreview(settings).html, errors: errors ?? {} });
  };
}
