import type { RequestHandler, Response } from 'express';
import type { Container } from '../../container';
import { adminAudit } from '../../http/request-context';
import { coerceBoolean, coerceNumber } from '../../http/form-values';
import { keptValues, type FormRedraw } from '../../http/pages';
import { withNotice } from '../../http/notices';
import { parseOrThrow } from '../../http/validate';
import { securitySettingsUpdate } from '../../schemas/settings.schemas';
import { ROLES } from '../../models';
import { SECURITY_ENV_VARIABLES, type SecuritySettings, type SecuritySettingsUpdate } from '../../services/operations/settings.service';
import { createSigningKeysCard } from './signing-keys-card';

const PAGE = { view: 'admin/settings/security', title: 'Security settings', path: '/admin/settings/security' } as const;
const MESSAGES = {
  refused: 'Not saved: correct the marked fields.',
} as const;

type SettingName = keyof SecuritySettings;

/** The form's values for the stored settings. */
function valuesOf(current: SecuritySettings): Record<string, unknown> {
  return {
    jwtExpiresIn: current.jwtExpiresIn.value,
    jwtRefreshGraceSeconds: current.jwtRefreshGraceSeconds.value,
    allowRegistration: current.allowRegistration.value,
    sessionMaxAgeSeconds: current.sessionMaxAgeSeconds.value,
    requireTwoFactorRoles: current.requireTwoFactorRoles.value,
    requireVerifiedEmail: current.requireVerifiedEmail.value,
  };
}

/** The ticked role checkboxes (`requireTwoFactorRoles`: one value or several); a form drawn before the card existed leaves it unchanged. */
function checkedRoles(body: Record<string, unknown>, current: SecuritySettings): unknown {
  if (body.requireTwoFactorRolesShown === undefined) return current.requireTwoFactorRoles.value;
  const ticked = body.requireTwoFactorRoles;
  const list = ticked === undefined ? [] : Array.isArray(ticked) ? ticked : [ticked];
  return (ROLES as readonly unknown[]).filter((role) => list.includes(role)).concat(list.filter((item) => !(ROLES as readonly unknown[]).includes(item)));
}

/** Lists compare by their items (the role checkboxes), everything else by value. */
function sameValue(a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((item, i) => item === b[i]) : a === b;
}

/**
 * The settings an admin changed on the form, typed for the API's schema. A value set by an environment
 * variable is not editable here; an unchanged one is left out, so it keeps its source (a default stays
 * a default instead of becoming a pinned admin value).
 */
function changesFrom(body: Record<string, unknown>, current: SecuritySettings): Record<string, unknown> {
  const posted: Record<SettingName, unknown> = {
    jwtExpiresIn: typeof body.jwtExpiresIn === 'string' ? body.jwtExpiresIn.trim() : body.jwtExpiresIn,
    // Blank is not "unchanged" but a refused value, so the schema names the field.
    jwtRefreshGraceSeconds: coerceNumber(body.jwtRefreshGraceSeconds) ?? '',
    allowRegistration: coerceBoolean(body.allowRegistration),
    // Left out of a form drawn before the field existed: unchanged.
    sessionMaxAgeSeconds: body.sessionMaxAgeSeconds === undefined ? current.sessionMaxAgeSeconds.value : (coerceNumber(body.sessionMaxAgeSeconds) ?? ''),
    requireTwoFactorRoles: checkedRoles(body, current),
    // A form drawn before the checkbox existed leaves it unchanged.
    requireVerifiedEmail: body.requireVerifiedEmailShown === undefined ? current.requireVerifiedEmail.value : coerceBoolean(body.requireVerifiedEmail),
  };
  return Object.fromEntries(
    (Object.keys(posted) as SettingName[])
      .filter((name) => current[name].source !== 'env' && !sameValue(posted[name], current[name].value))
      .map((name) => [name, posted[name]]),
  );
}

/**
 * `/admin/settings/security` (CONTRACT 6): the "Session / JWT" card. Reads and writes through the
 * settings service and the JSON API's schema, so page and API accept exactly the same values.
 */
export function createSecuritySettingsPage(container: Container) {
  const { settings } = container;
  const signingKeysCard = createSigningKeysCard(container);
  async function draw(res: Response, status: number, state: { values?: Record<string, unknown>; errors?: Record<string, string>; error?: string }) {
    const current = await settings.getSecuritySettings();
    // The "Signing keys" card brings its own data (its partial reads `signingKeys` from res.locals).
    res.locals.signingKeys = await signingKeysCard.view();
    res.status(status).render(PAGE.view, {
      title: PAGE.title,
      current,
      envVariables: SECURITY_ENV_VARIABLES,
      roles: ROLES,
      values: state.values ?? valuesOf(current),
      errors: state.errors ?? {},
      error: state.error ?? null,
    });
  }

  const show: RequestHandler = (_req, res) => draw(res, 200, {});

  const save: RequestHandler = async (req, res) => {
    const changes = changesFrom(req.body as Record<string, unknown>, await settings.getSecuritySettings());
    if (Object.keys(changes).length === 0) return res.redirect(303, withNotice(PAGE.path, 'settings_unchanged'));
    const update: SecuritySettingsUpdate = await parseOrThrow(securitySettingsUpdate, changes);
    await settings.updateSecuritySettings(update, adminAudit(req));
    res.redirect(303, withNotice(PAGE.path, 'settings_saved'));
  };

  const redraw: FormRedraw = (req, res, failure) => {
    const body = keptValues(req.body);
    const values = { ...body, allowRegistration: coerceBoolean(body.allowRegistration) === true, requireTwoFactorRoles: [body.requireTwoFactorRoles ?? []].flat(), requireVerifiedEmail: coerceBoolean(body.requireVerifiedEmail) === true };
    const refused = Object.keys(failure.errors).length > 0;
    return draw(res, failure.status, { values, errors: failure.errors, error: refused ? MESSAGES.refused : failure.error });
  };

  return { show, save, redraw };
}
