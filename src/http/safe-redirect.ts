const PROBE_ORIGIN = 'http://same-origin.invalid';
const MAX_LENGTH = 2048;
/** A path a browser reads as same-origin: one slash, then anything but another slash or a backslash. */
const SAME_ORIGIN_PATH = /^\/(?![/\\])/;

/**
 * A same-origin relative path to redirect to, or null. Refuses absolute URLs, scheme-relative `//host`,
 * backslashes (browsers read `/\host` as `//host`) and control characters. The answer is the URL
 * parser's normalised path, so it is checked again after normalising: `/.//host`, `/a/..//host` and
 * `/%2e//host` all normalise to `//host`.
 */
export function safeRedirect(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return null;
  if (!SAME_ORIGIN_PATH.test(value) || value.includes('\\')) return null;
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  try {
    const url = new URL(value, PROBE_ORIGIN);
    if (url.origin !== PROBE_ORIGIN || !SAME_ORIGIN_PATH.test(url.pathname)) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}
