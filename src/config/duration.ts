/**
 * The most a token lifetime and the refresh grace can be, wherever they are set: far past a year, cookie
 * expiry dates overflow and every sign-in fails. A lifetime is at least a minute from the admin API and
 * page, and at least a second from the environment (`JWT_EXPIRES_IN=1s` is how tests watch tokens expire).
 */
export const MAX_TOKEN_LIFETIME_SECONDS = 365 * 86_400;
export const MAX_REFRESH_GRACE_SECONDS = 365 * 86_400;

/** Parses a lifetime such as `30d`, `12h`, `15m`, `3600s` or bare seconds into whole seconds; null when malformed. */
export function parseDurationSeconds(input: string | number): number | null {
  if (typeof input === 'number') return Number.isSafeInteger(input) && input >= 0 ? input : null;
  const match = /^\s*(\d{1,10})\s*([smhdw]?)\s*$/i.exec(input);
  if (!match) return null;
  const unit = match[2].toLowerCase();
  const factor = { '': 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[unit] ?? 1;
  const seconds = Number(match[1]) * factor;
  return Number.isSafeInteger(seconds) ? seconds : null;
}
