import type { RequestHandler } from 'express';
import type { Container } from '../../container';
import { renderOtpEmail, type OtpEmailSettings } from '../../mail/otp-email';
import { otpLoginPlugin } from '../../plugins/otp-login.plugin';
import { settingsFromForm } from '../../plugins/plugin-form';

const SAMPLE_DIGITS = '12345678';
const DEFAULT_CODE_LENGTH = 6;

/** A sample code of the configured length (4–8; anything else shows the default length). */
function sampleCode(length: unknown): string {
  const valid = typeof length === 'number' && Number.isInteger(length) && length >= 4 && length <= 8;
  return SAMPLE_DIGITS.slice(0, valid ? length : DEFAULT_CODE_LENGTH);
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
