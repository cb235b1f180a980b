import type { z } from 'zod';

/** What a secret looks like when read through the API. Sent back unchanged, it keeps the stored secret. */
export const SECRET_MASK = '********';

/**
 * Where a plugin keeps a secret: a whole value (`clientSecret`, `apiKey`) or only the password part of
 * a URL (`smtp://user:password@host`), given as the path of keys inside the settings.
 */
export interface SecretField {
  path: readonly string[];
  kind: 'value' | 'url-password';
  /**
   * The settings holding the URLs the secret is sent to (a URL's password goes to its own URL). A
   * stored secret is kept only while each of them keeps its scheme, host and port; re-pointing one
   * needs the secret typed again in the same change, so a masked secret cannot be sent elsewhere.
   */
  sentTo: readonly (readonly string[])[];
  /** The refusal when a destination changes and the secret was not typed again (named at `path`). */
  retypeMessage: string;
}

/**
 * A plugin as the registry knows it: its name and its settings schema. The schema is strict, gives
 * every setting its range, and supplies a default for every required key, so `settings.parse({})`
 * yields the defaults.
 */
export interface PluginDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  settings: S;
  secrets: readonly SecretField[];
  /** Settings holding URLs the service connects to: they must reach public addresses (src/http/outbound-url.ts). */
  outboundUrls: readonly (readonly string[])[];
}

/** Declares a plugin (an identity function that keeps the schema's type). */
export function definePlugin<S extends z.ZodType>(definition: PluginDefinition<S>): PluginDefinition<S> {
  return definition;
}
