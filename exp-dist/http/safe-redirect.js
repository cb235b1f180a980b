"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.safeRedirect = safeRedirect;
const PROBE_ORIGIN = 'http://same-origin.invalid';
const MAX_LENGTH = 2048;
/**
 * A same-origin relative path to redirect to, or null. Refuses absolute URLs, scheme-relative `//host`,
 * backslashes (browsers read `/\host` as `//host`) and control characters.
 */
function safeRedirect(value) {
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH)
        return null;
    if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
        return null;
    if (/[\u0000-\u001f\u007f]/.test(value))
        return null;
    try {
        const url = new URL(value, PROBE_ORIGIN);
        return url.origin === PROBE_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : null;
    }
    catch {
        return null;
    }
}
//# sourceMappingURL=safe-redirect.js.map