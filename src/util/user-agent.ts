import { UAParser } from 'ua-parser-js';

/** Longest browser or OS name kept. */
const PART_MAX = 64;

/**
 * "Chrome 131" / "macOS 15" from a User-Agent, read by ua-parser-js (a maintained parser, not regexes of ours).
 * Only a numeric major version is kept: the parser takes a version from whatever follows a known name
 * ("Firefox/evil.example"), and what is shown to users (sessions, security notices) must be facts, not text
 * a sender chose.
 */
export function describeAgent(userAgent: string | null): { browser: string | null; os: string | null } {
  if (!userAgent) return { browser: null, os: null };
  const parsed = new UAParser(userAgent).getResult();
  const join = (name?: string, version?: string) => (name ? [name, /^\d+/.exec(version ?? '')?.[0]].filter(Boolean).join(' ').slice(0, PART_MAX) : null);
  return { browser: join(parsed.browser.name, parsed.browser.version), os: join(parsed.os.name, parsed.os.version) };
}
