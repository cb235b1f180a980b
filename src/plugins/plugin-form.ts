import type { z } from 'zod';
import { coerceBoolean, coerceNumber } from '../http/form-values';
import type { PluginDefinition, SecretField } from './plugin-definition';

/**
 * A plugin's settings as the controls of an admin form, read from the plugin's own schema: the page and
 * the API judge a value by the same rule, and the HTML `min`/`max` are that rule's bounds.
 */
export interface SettingControl {
  /** Dot path inside the settings (`codeLength`, `providers.github.clientId`): the form field's name. */
  name: string;
  kind: 'number' | 'boolean' | 'text';
  min?: number;
  max?: number;
  /** A whole value (`apiKey`) or a URL's password (`smtpUrl`) that is never drawn back in clear. */
  secret?: SecretField['kind'];
}

type Settings = Record<string, unknown>;

interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/** The schema under optional/default/prefault/nullable wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let def = defOf(current); def.innerType; def = defOf(current)) current = def.innerType;
  return current;
}

function bound(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Every leaf setting of a plugin, in the schema's order. */
export function settingControls(definition: PluginDefinition): SettingControl[] {
  const secrets = new Map(definition.secrets.map((secret) => [secret.path.join('.'), secret.kind]));
  const walk = (schema: z.ZodType, prefix: string): SettingControl[] =>
    Object.entries(defOf(schema).shape ?? {}).flatMap(([key, child]) => {
      const name = prefix + key;
      const inner = unwrap(child);
      const { type } = defOf(inner);
      if (type === 'object') return walk(inner, `${name}.`);
      if (type === 'number') {
        const { minValue, maxValue } = inner as unknown as { minValue?: number | null; maxValue?: number | null };
        return [{ name, kind: 'number' as const, min: bound(minValue), max: bound(maxValue) }];
      }
      if (type === 'boolean') return [{ name, kind: 'boolean' as const }];
      return [{ name, kind: 'text' as const, secret: secrets.get(name) }];
    });
  return walk(unwrap(definition.settings), '');
}

function setPath(target: Settings, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Settings;
  node[path[path.length - 1]] = value;
}

/**
 * The settings change an admin form posts, typed by the plugin's schema, for `plugins.update`/`check`:
 * numbers from numeric text, checkboxes to booleans, a blank field to `null` (back to its default).
 * A blank secret is left out, so the stored one is kept; a masked URL comes back masked and the
 * registry restores its password. Text the schema would refuse is passed on as typed, so the refusal
 * names the field; a field the form does not carry is left unchanged (a checkbox there is unchecked).
 * Keys that are not settings (`active`) are not read.
 */
export function settingsFromForm(definition: PluginDefinition, body: Record<string, unknown>): Settings {
  const patch: Settings = {};
  for (const control of settingControls(definition)) {
    const raw = Object.hasOwn(body, control.name) ? body[control.name] : undefined;
    let value: unknown;
    if (control.kind === 'boolean') value = coerceBoolean(raw);
    else if (typeof raw !== 'string') value = raw; // absent: unchanged; a repeated key: refused by the schema
    else if (raw.trim() === '') value = control.secret === 'value' ? undefined : null;
    else if (control.kind === 'number') value = coerceNumber(raw);
    else value = raw.trim();
    if (value !== undefined) setPath(patch, control.name.split('.'), value);
  }
  return patch;
}

/** The value of a control in a settings tree (what a page draws in the field). */
export function settingAt(settings: Settings, name: string): unknown {
  let node: unknown = settings;
  for (const key of name.split('.')) node = typeof node === 'object' && node !== null ? (node as Settings)[key] : undefined;
  return node;
}
