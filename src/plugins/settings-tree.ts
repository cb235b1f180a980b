/** Plugin settings as stored: a tree of plain objects (JSON). */
export type Settings = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Settings {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a path of keys inside a settings tree (undefined where the path ends early). */
export function getPath(settings: Settings, path: readonly string[]): unknown {
  let node: unknown = settings;
  for (const key of path) node = isPlainObject(node) ? node[key] : undefined;
  return node;
}

/** The decoded password of a URL setting, or undefined (no URL, or no password in it). */
export function urlPassword(value: unknown): string | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const password = new URL(value).password;
  return password ? decodeURIComponent(password) : undefined;
}
