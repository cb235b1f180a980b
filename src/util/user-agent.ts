import { UAParser } from 'ua-parser-js';
import { BoundedMap } from './bounded-map';

/** Longest browser or OS name kept. */
const PART_MAX = 64;
/** User-Agents whose description this process remembers: a few browsers make most sign-ins; bounded whatever clients send. */
const DESCRIBED = 1_000;

export interface AgentDescription {
  readonly browser: string | null;
  readonly os: string | null;
}

const described = new BoundedMap<string, AgentDescription>(DESCRIBED);

/**
 * "Chrome 131" / "macOS 15" from a User-Agent, read by ua-parser-js (a maintained parser, not regexes of ours).
 * Only a numeric major version is kept: the parser takes a version from whatever follows a known name
 * ("Firefox/evil.example"), and what is shown to users (sessions, security notices) must be facts, not text
 * a sender chose.
 */
export function describeAgent(userAgent: string | null): AgentDescription {
  if (!userAgent) return { browser: null, os: null };
  const known = described.get(userAgent);
  if (known) return known;
  // Browser and OS only: the device, engine and CPU parts of `getResult()` were most of a sign-in's parsing CPU.
  const parser = new UAParser(userAgent);
  const [browser, os] = [parser.getBrowser(), parser.getOS()];
  const join = (name?: string, version?: string) => (name ? [name, /^\d+/.exec(version ?? '')?.[0]].filter(Boolean).join(' ').slice(0, PART_MAX) : null);
  const description = Object.freeze({ browser: join(browser.name, browser.version), os: join(os.name, os.version) });
  described.set(userAgent, description);
  return description;
}
