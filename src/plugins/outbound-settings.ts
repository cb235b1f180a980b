import { outboundUrlRefusal } from '../http/outbound-url';
import { SECRET_MASK, type PluginDefinition, type SecretField } from './plugin-definition';
import { getPath, urlPassword, type Settings } from './settings-tree';

/**
 * Where a URL setting sends what it is given: its scheme, host and port (not its path: the same server
 * gets the secret either way). Null when the setting is unset or not a URL: nothing goes anywhere new.
 */
function destinationOf(value: unknown): string | null {
  if (typeof value !== 'string' || !URL.canParse(value)) return null;
  const url = new URL(value);
  return `${url.protocol}//${url.host.toLowerCase()}`;
}

/** Whether a change leaves a stored secret in place without typing it (left out, or sent back masked). */
function keepsStoredSecret(secret: SecretField, stored: Settings, patch: Settings, next: Settings): boolean {
  const incoming = getPath(patch, secret.path);
  const kept = getPath(stored, secret.path);
  if (secret.kind === 'url-password') return urlPassword(kept) !== undefined && (incoming === undefined || urlPassword(incoming) === SECRET_MASK);
  return typeof kept === 'string' && kept !== '' && (incoming === undefined || incoming === SECRET_MASK) && getPath(next, secret.path) === kept;
}

/**
 * Secrets a change would keep from storage while pointing one of their destinations at another server
 * (`next` is the stored settings with the change applied): an error per secret, named at its path.
 * A destination that is cleared sends the secret nowhere new (the service's own default) and passes.
 */
export function repointedSecrets(definition: PluginDefinition, stored: Settings, patch: Settings, next: Settings): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const secret of definition.secrets) {
    if (!keepsStoredSecret(secret, stored, patch, next)) continue;
    const moved = secret.sentTo.some((path) => {
      const after = destinationOf(getPath(next, path));
      return after !== null && after !== destinationOf(getPath(stored, path));
    });
    if (moved) errors[secret.path.join('.')] = secret.retypeMessage;
  }
  return errors;
}

/**
 * Outbound URL settings a change points at a new server that is not a public address (loopback,
 * private, link-local, metadata…; names resolved now): an error per setting. A URL whose server is
 * unchanged is not judged again, so a value saved under ALLOW_PRIVATE_OUTBOUND blocks no other change.
 */
export async function refusedDestinations(definition: PluginDefinition, stored: Settings, patch: Settings): Promise<Record<string, string>> {
  const judged = await Promise.all(
    definition.outboundUrls.map(async (path): Promise<[string, string | null]> => {
      const value = getPath(patch, path);
      const changed = typeof value === 'string' && URL.canParse(value) && destinationOf(value) !== destinationOf(getPath(stored, path));
      return [path.join('.'), changed ? await outboundUrlRefusal(value) : null];
    }),
  );
  return Object.fromEntries(judged.filter((entry): entry is [string, string] => entry[1] !== null));
}
