import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../../container';
import { AppError } from '../../http/app-error';
import { adminAudit } from '../../http/request-context';
import { coerceBoolean } from '../../http/form-values';
import type { FormRedraw } from '../../http/pages';
import { PLUGIN_NAMES, SECRET_MASK, type PluginName } from '../../plugins';
import { OAUTH_PROVIDERS } from '../../models/oauth-provider-names';
import { settingAt, settingControls, settingsFromForm } from '../../plugins/plugin-form';
import { maskSecret } from '../../services/operations/plugin-registry';
import { otpGuessOdds, otpPreview } from './otp-preview';
import { withNotice } from '../../http/notices';

/** What each plugin page is called (its title and the list's name for it). */
const PLUGIN_TITLES: Record<PluginName, string> = {
  email: 'Email',
  'otp-login': 'OTP login',
  'oauth-providers': 'OAuth providers',
};

const MESSAGES = {
  refused: 'Not saved: correct the marked fields.',
  retypeSecret: 'Not kept: secrets are never sent back to the browser, so type it again.',
} as const;

type Values = Record<string, unknown>;

/** The newest outbound mails on the email page; the rest through GET /api/outbound-mail. */
const OUTBOUND_MAIL_SHOWN = 20;

interface PageState {
  values: Values;
  /** Secret settings that hold a stored value (drawn as blank fields that keep it). */
  storedSecrets: string[];
  errors?: Record<string, string>;
  error?: string | null;
  /** Settings for the OTP page's preview (the saved ones, or those of a refused post). */
  previewSettings?: Record<string, unknown>;
}

function pluginName(req: Request): PluginName {
  const name = req.params.name as string;
  if (!(PLUGIN_NAMES as readonly string[]).includes(name)) throw AppError.notFound('Plugin not found');
  return name as PluginName;
}

/**
 * The plugin pages of CONTRACT 6: the list, and one settings form per plugin. Every read and write goes
 * through the plugin registry the JSON API uses (the same schema, ranges and secret masking); the form
 * only turns typed text into the types that schema judges (src/plugins/plugin-form.ts).
 */
export function createPluginsPages(container: Container) {
  const { plugins, config, mailer, oauthProviders } = container;

  const list: RequestHandler = async (_req, res) => {
    const all = await plugins.list();
    const rows = all.map((plugin) => ({
      name: plugin.name,
      title: PLUGIN_TITLES[plugin.name as PluginName],
      description: plugins.definitionOf(plugin.name).description,
      active: plugin.active,
    }));
    res.render('admin/plugins/index', { title: 'Plugins', plugins: rows });
  };

  /** What only one plugin's page shows beside its settings. */
  async function extras(name: PluginName, state: PageState, req: Request): Promise<Values> {
    if (name === 'email') {
      const [mailReady, outbound] = await Promise.all([mailer.isConfigured(), mailer.list({ page: 1, limit: OUTBOUND_MAIL_SHOWN })]);
      return { envSmtp: Boolean(config.smtpUrl), envFrom: config.emailFrom ?? null, mailReady, adminEmail: (req.user as Express.User).email, outbound };
    }
    if (name === 'oauth-providers') {
      return { providers: OAUTH_PROVIDERS, callbackUrls: Object.fromEntries(OAUTH_PROVIDERS.map((provider) => [provider, oauthProviders.callbackUrl(provider)])) };
    }
    return { preview: otpPreview(state.previewSettings ?? {}), odds: otpGuessOdds(state.previewSettings ?? {}) };
  }

  async function draw(req: Request, res: Response, name: PluginName, status: number, state: PageState) {
    const definition = plugins.definitionOf(name);
    const controls = Object.fromEntries(settingControls(definition).map((control) => [control.name, control]));
    res.status(status).render(`admin/plugins/${name}`, {
      title: `${PLUGIN_TITLES[name]} plugin`,
      name,
      controls,
      values: state.values,
      storedSecrets: state.storedSecrets,
      errors: state.errors ?? {},
      error: state.error ?? null,
      ...(await extras(name, state, req)),
    });
  }

  /** The form's values for the saved plugin: masked URLs as masked, whole secrets blank. */
  async function savedState(name: PluginName): Promise<PageState> {
    const plugin = await plugins.get(name);
    const values: Values = { active: plugin.active };
    const storedSecrets: string[] = [];
    for (const control of settingControls(plugins.definitionOf(name))) {
      const value = settingAt(plugin.settings, control.name);
      if (control.secret === 'value' && value === SECRET_MASK) storedSecrets.push(control.name);
      values[control.name] = control.secret === 'value' ? '' : value;
    }
    const previewSettings = name === 'otp-login' ? await plugins.settingsOf('otp-login') : undefined;
    return { values, storedSecrets, previewSettings };
  }

  const show: RequestHandler = async (req, res) => {
    const name = pluginName(req);
    await draw(req, res, name, 200, await savedState(name));
  };

  const save: RequestHandler = async (req, res) => {
    const name = pluginName(req);
    const body = req.body as Values;
    const definition = plugins.definitionOf(name);
    await plugins.update(name, { active: coerceBoolean(body.active) === true, settings: settingsFromForm(definition, body) }, adminAudit(req));
    res.redirect(303, withNotice(`/admin/plugins/${name}`, 'plugin_saved'));
  };

  /** A refused save: the typed values again (secrets blank, and asked for again if one was typed), errors by field. */
  const redraw: FormRedraw = async (req, res, failure) => {
    const name = pluginName(req);
    const body = req.body as Values;
    const saved = await savedState(name);
    const values: Values = { active: coerceBoolean(body.active) === true };
    const errors = { ...failure.errors };
    for (const control of settingControls(plugins.definitionOf(name))) {
      const raw = body[control.name];
      const typed = typeof raw === 'string' ? raw : '';
      if (control.kind === 'boolean') values[control.name] = coerceBoolean(raw) === true;
      else if (control.secret) {
        // A typed secret is not drawn back: a whole one stays blank, a URL's password is masked.
        const shown = control.secret === 'value' ? '' : (maskSecret(typed, control.secret) as string);
        if (typed.trim() !== '' && shown !== typed) errors[control.name] ??= MESSAGES.retypeSecret;
        values[control.name] = shown;
      } else values[control.name] = typed;
    }
    const previewSettings = name === 'otp-login' ? (await plugins.check(name, settingsFromForm(plugins.definitionOf(name), body))).settings : undefined;
    const error = Object.keys(failure.errors).length > 0 ? MESSAGES.refused : failure.error;
    await draw(req, res, name, failure.status, { values, storedSecrets: saved.storedSecrets, errors, error, previewSettings });
  };

  return { list, show, save, redraw };
}
