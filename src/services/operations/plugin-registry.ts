import type { z } from 'zod';
import type { Models } from '../../models';
import type { ActivityService } from './activity.service';
import type { AdminAudit } from '../../http/request-context';
import { AppError } from '../../http/app-error';
import { fieldErrors } from '../../http/validate';
import { transactionWithRetry } from '../../db/transaction-retry';
import { PLUGINS, type PluginName, type PluginSettingsMap } from '../../plugins/index';
import { SECRET_MASK, type PluginDefinition, type SecretField } from '../../plugins/plugin-definition';
import { getPath, isPlainObject, urlPassword, type Settings } from '../../plugins/settings-tree';
import { refusedDestinations, repointedSecrets } from '../../plugins/outbound-settings';

/** A plugin as the API shows it: secrets masked. */
export interface PluginView {
  name: string;
  active: boolean;
  settings: Settings;
}

export interface PluginUpdate {
  active?: boolean;
  /** Merged into the stored settings (nested objects too); `null` removes a key (back to its default). */
  settings?: Settings;
}

const MESSAGES = {
  unknown: 'Plugin not found',
  nothingToKeep: 'no secret is stored here to keep: type it',
} as const;

/** `base` with `patch` laid over it: objects merge key by key, `null` deletes, anything else replaces. */
function deepMerge(base: Settings, patch: Settings): Settings {
  const result: Settings = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    // Into an empty object when nothing is stored there yet, so the patch's own nulls are dropped too.
    else if (isPlainObject(value)) result[key] = deepMerge(isPlainObject(result[key]) ? (result[key] as Settings) : {}, value);
    else result[key] = value;
  }
  return result;
}

/** Sets a value at a path of an object tree (a copy is made by the callers, which own `settings`). */
function setPath(settings: Settings, path: readonly string[], value: unknown): void {
  let node = settings;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(node[key])) return;
    node = node[key] as Settings;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
}

/** A secret as it may be shown: a whole value as the mask, a URL with its password masked. */
export function maskSecret(value: unknown, kind: SecretField['kind']): unknown {
  if (kind === 'value') return typeof value === 'string' && value !== '' ? SECRET_MASK : value;
  if (urlPassword(value) === undefined) return value;
  const url = new URL(value as string);
  url.password = SECRET_MASK;
  return url.toString();
}

/** A mask sent back in an update means "keep what is stored"; this puts the stored secret back. */
function restoreSecret(incoming: unknown, stored: unknown, kind: SecretField['kind']): unknown {
  if (kind === 'value') return incoming === SECRET_MASK ? stored : incoming;
  if (urlPassword(incoming) !== SECRET_MASK) return incoming;
  const url = new URL(incoming as string);
  url.password = urlPassword(stored) === undefined ? '' : encodeURIComponent(urlPassword(stored) as string);
  return url.toString();
}

/**
 * Masks sent back where nothing is stored to keep (a refused form drew the typed password masked, and the
 * next save sent that mask): an error per field, so a save never silently drops a secret the admin typed.
 */
function masksWithNothingStored(definition: PluginDefinition, stored: Settings, patch: Settings): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const secret of definition.secrets) {
    const incoming = getPath(patch, secret.path);
    const kept = getPath(stored, secret.path);
    const masked = secret.kind === 'value' ? incoming === SECRET_MASK : urlPassword(incoming) === SECRET_MASK;
    const nothing = secret.kind === 'value' ? kept === undefined || kept === '' : urlPassword(kept) === undefined;
    if (masked && nothing) errors[secret.path.join('.')] = MESSAGES.nothingToKeep;
  }
  return errors;
}

/** Dot paths of the leaves that differ between two settings trees (names only, never values). */
function changedPaths(before: unknown, after: unknown, prefix = ''): string[] {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys].flatMap((key) => changedPaths(before[key], after[key], prefix ? `${prefix}.${key}` : key));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix];
}

/**
 * The plugins registry: each plugin's active flag and settings (the `plugins` table; a missing row
 * means inactive with defaults). Stored settings are laid over the defaults; updates are validated
 * as the merged whole, so a range error names the field whatever was sent. `allowPrivateOutbound`
 * (ALLOW_PRIVATE_OUTBOUND; off unless given) lets outbound URL settings reach non-public addresses.
 */
export function createPluginRegistry(deps: { models: Models; activity: ActivityService; plugins?: readonly PluginDefinition[]; allowPrivateOutbound?: boolean }) {
  const { models, activity, allowPrivateOutbound = false } = deps;
  const definitions = new Map<string, PluginDefinition>((deps.plugins ?? PLUGINS).map((plugin) => [plugin.name, plugin]));

  function definitionOf(name: string): PluginDefinition {
    const definition = definitions.get(name);
    if (!definition) throw AppError.notFound(MESSAGES.unknown);
    return definition;
  }

  /**
   * Stored settings cleaned and resolved: keys that no longer validate (edited by hand, or from an older
   * version) are dropped one by one, so they fall back to their defaults while the rest of the stored
   * settings (secrets included) stay in force. `stored` is what remains; `settings` the effective whole.
   */
  function resolve(definition: PluginDefinition, raw: Settings): { stored: Settings; settings: Settings } {
    let stored = raw;
    for (let round = 0; round < 10; round++) {
      const parsed = definition.settings.safeParse(stored);
      if (parsed.success) return { stored, settings: parsed.data as Settings };
      stored = structuredClone(stored);
      for (const issue of parsed.error.issues) {
        const path = issue.path.map(String);
        const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...path, key]) : [path];
        for (const key of keys) if (key.length > 0) setPath(stored, key, undefined);
      }
    }
    return { stored: {}, settings: definition.settings.parse({}) as Settings };
  }

  function effective(definition: PluginDefinition, raw: Settings): Settings {
    return resolve(definition, raw).settings;
  }

  function mask(definition: PluginDefinition, settings: Settings): Settings {
    const masked = structuredClone(settings);
    for (const secret of definition.secrets) {
      const value = getPath(masked, secret.path);
      if (value !== undefined) setPath(masked, secret.path, maskSecret(value, secret.kind));
    }
    return masked;
  }

  /** The stored settings with a change laid over them; masked secrets sent back get the stored secret. */
  function applyChange(definition: PluginDefinition, stored: Settings, patch: Settings): Settings {
    const incoming = structuredClone(patch);
    for (const secret of definition.secrets) {
      const value = getPath(incoming, secret.path);
      if (value !== undefined && value !== null) setPath(incoming, secret.path, restoreSecret(value, getPath(stored, secret.path), secret.kind));
    }
    return deepMerge(stored, incoming);
  }

  async function load(name: string): Promise<{ definition: PluginDefinition; active: boolean; stored: Settings; settings: Settings }> {
    const definition = definitionOf(name);
    const row = await models.Plugin.findByPk(name);
    return { definition, active: row?.active ?? false, ...resolve(definition, row?.settings ?? {}) };
  }


  /** Every plugin, secrets masked. */
  async function list(): Promise<PluginView[]> {
    const rows = await models.Plugin.findAll({ where: { name: [...definitions.keys()] } });
    const byName = new Map(rows.map((row) => [row.name, row]));
    return [...definitions.values()].map((definition) => {
      const row = byName.get(definition.name);
      return { name: definition.name, active: row?.active ?? false, settings: mask(definition, effective(definition, row?.settings ?? {})) };
    });
  }

  /** One plugin, secrets masked; 404 for an unknown name. */
  async function get(name: string): Promise<PluginView> {
    const { definition, active, settings } = await load(name);
    return { name, active, settings: mask(definition, settings) };
  }

  /**
   * Changes the active flag and/or merges settings, validating the merged result (400 naming the
   * field, nothing written). Masked secrets sent back keep the stored secret, but only while the
   * URLs they are sent to keep their server; outbound URLs must reach public addresses.
   */
  async function update(name: string, change: PluginUpdate, audit?: AdminAudit): Promise<PluginView> {
    const definition = definitionOf(name);
    // Names are resolved here, before the row is locked: a slow resolver must not hold the lock.
    const outbound = allowPrivateOutbound || !change.settings ? {} : await refusedDestinations(definition, (await load(name)).stored, change.settings);
    const result = await transactionWithRetry(
      models.Plugin.sequelize!,
      async (transaction) => {
        const row = await models.Plugin.findByPk(name, { transaction, lock: true });
        const { stored, settings: before } = resolve(definition, row?.settings ?? {});
        const unkept = masksWithNothingStored(definition, stored, change.settings ?? {});
        const nextStored = applyChange(definition, stored, change.settings ?? {});
        const repointed = repointedSecrets(definition, stored, change.settings ?? {}, nextStored);
        const parsed = (definition.settings as z.ZodType).safeParse(nextStored);
        const errors = { ...outbound, ...repointed, ...(parsed.success ? {} : fieldErrors(parsed.error)), ...unkept };
        if (!parsed.success || Object.keys(errors).length > 0) throw AppError.validation(errors);
        const activeBefore = row?.active ?? false;
        const activeAfter = change.active ?? activeBefore;
        if (row) {
          row.active = activeAfter;
          row.settings = nextStored;
          row.changed('settings', true);
          await row.save({ transaction });
        } else {
          await models.Plugin.create({ name, active: activeAfter, settings: nextStored }, { transaction });
        }
        const after = parsed.data as Settings;
        return { activeBefore, activeAfter, before, after };
      },
      { retryOnUniqueViolation: true },
    );

    if (audit) {
      const details: Record<string, unknown> = { plugin: name, changedSettings: changedPaths(result.before, result.after) };
      if (result.activeBefore !== result.activeAfter) details.active = { from: result.activeBefore, to: result.activeAfter };
      await activity.record({ action: 'plugin.updated', userId: audit.actor.id, email: audit.actor.email, details }, audit.context);
    }
    return { name, active: result.activeAfter, settings: mask(definition, result.after) };
  }

  /**
   * What `update` would make of a settings change, without storing anything (the admin page's live
   * preview): the merged settings, validated by the plugin's own schema. `errors` names each refused
   * field; `settings` is then the merged, unvalidated whole, secrets included (never for answers).
   */
  async function check(name: string, patch: Settings): Promise<{ settings: Settings; errors: Record<string, string> | null }> {
    const { definition, stored } = await load(name);
    const merged = applyChange(definition, stored, patch);
    const parsed = (definition.settings as z.ZodType).safeParse(merged);
    return parsed.success ? { settings: parsed.data as Settings, errors: null } : { settings: merged, errors: fieldErrors(parsed.error) };
  }

  /**
   * Whether the plugin is switched on and its effective settings, from one read of its row: for a request
   * that needs both (secrets included, so never for answers).
   */
  async function stateOf<N extends PluginName>(name: N): Promise<{ active: boolean; settings: PluginSettingsMap[N] }> {
    const { active, settings } = await load(name);
    return { active, settings: settings as unknown as PluginSettingsMap[N] };
  }

  /** Whether the plugin is switched on (false for a plugin never configured). */
  async function isActive(name: PluginName): Promise<boolean> {
    return (await stateOf(name)).active;
  }

  /** The plugin's effective settings, secrets included: for the service's own use, never for answers. */
  async function settingsOf<N extends PluginName>(name: N): Promise<PluginSettingsMap[N]> {
    return (await stateOf(name)).settings;
  }

  return { definitionOf, list, get, update, check, stateOf, isActive, settingsOf };
}

export type PluginRegistry = ReturnType<typeof createPluginRegistry>;
