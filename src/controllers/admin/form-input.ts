import type { ZodType } from 'zod';
import { fieldErrors } from '../../http/validate';

/** The last value of a form key (a checkbox after its hidden "off" input arrives as a list). */
export function lastValue(body: unknown, name: string): unknown {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, name)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/**
 * The named text inputs of a form post, ready for the JSON API's schema: an empty input means "not
 * given" (`empty: undefined`, e.g. when creating) or "cleared" (`empty: null`, e.g. a name when editing).
 */
export function formFields(body: unknown, names: readonly string[], options: { empty?: null } = {}): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of names) {
    const value = lastValue(body, name);
    if (value === undefined) continue;
    if (typeof value === 'string' && value.trim() === '') {
      if ('empty' in options) fields[name] = options.empty;
      continue;
    }
    fields[name] = value;
  }
  return fields;
}

/**
 * A list page's query (paging and filters) through the JSON API's own query schema. Empty filter inputs
 * are "no filter"; a bad value shows as a notice and the unfiltered first page is shown instead.
 */
export function pageOf<T>(schema: ZodType | undefined, query: unknown): { query: T; error: string | null } {
  const given = Object.fromEntries(Object.entries((query ?? {}) as Record<string, unknown>).filter(([name, value]) => value !== '' && name !== 'message' && name !== 'error'));
  const parsed = schema!.safeParse(given);
  if (parsed.success) return { query: parsed.data as T, error: null };
  const problems = Object.entries(fieldErrors(parsed.error)).map(([field, message]) => `${field} ${message}`);
  return { query: schema!.parse({}) as T, error: `Filter ignored: ${problems.join('; ')}` };
}

/** A path with a confirmation for the page it leads to (shown escaped by the layout). */
export function withMessage(path: string, message: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}message=${encodeURIComponent(message)}`;
}
