/**
 * A same-origin relative path to redirect to, or null. Refuses absolute URLs, scheme-relative `//host`,
 * backslashes (browsers read `/\host` as `//host`) and control characters.
 */
export declare function safeRedirect(value: unknown): string | null;
