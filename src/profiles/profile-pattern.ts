import vm from 'node:vm';

/** Wall-clock budget for one pattern test; a pattern that needs longer is treated as not matching. */
const PATTERN_TIMEOUT_MS = 100;

/*
 * ReDoS: patterns come from the operator and are trusted to be meant well, but not to be efficient, and
 * the strings they run against are hostile. Two defences:
 * 1. Length cap: a string over MAX_STRING_LENGTH (profile-values.ts) is rejected before any pattern sees it, so polynomial
 *    backtracking (e.g. `\s*x\s*` style patterns, O(n^2) or O(n^3)) is bounded by a small n, and a
 *    1 MB body costs nothing.
 * 2. Time budget: the cap alone does not stop exponential patterns such as `^(a+)+$`, which hang on
 *    30 characters. The test runs in a vm context with a timeout; V8 interrupts a running regex when
 *    the timeout fires, and we report the value as not matching instead of blocking the event loop.
 */
const patternCache = new Map<string, RegExp>();
const patternContext = vm.createContext(Object.create(null) as object);
const patternScript = new vm.Script('pattern.test(input)');

/** Compiles a definition pattern (cached: patterns come only from the boot-time definition); throws SyntaxError when invalid. */
export function compilePattern(pattern: string): RegExp {
  let compiled = patternCache.get(pattern);
  if (!compiled) {
    compiled = new RegExp(pattern);
    patternCache.set(pattern, compiled);
  }
  return compiled;
}

/** True when `input` matches; false on no match or when the test exceeds PATTERN_TIMEOUT_MS. */
export function matchesPattern(pattern: string, input: string): boolean {
  const compiled = compilePattern(pattern);
  const sandbox = patternContext as { pattern?: RegExp; input?: string };
  sandbox.pattern = compiled;
  sandbox.input = input;
  try {
    return patternScript.runInContext(patternContext, { timeout: PATTERN_TIMEOUT_MS }) === true;
  } catch {
    return false;
  } finally {
    sandbox.pattern = undefined;
    sandbox.input = undefined;
  }
}
