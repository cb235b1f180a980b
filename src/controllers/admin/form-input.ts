import type { RequestHandler } from 'express';
import type { ZodType } from 'zod';
import { AppError } from '../../http/app-error';
import { formPost, type FormRedraw } from '../../http/pages';
import { withNotice, type NoticeCode } from '../../http/notices';
import { fieldErrors } from '../../http/validate';

/** The last value of a form key (a checkbox after its hidden "off" input arrives as a list). */
export function lastValue(body: unknown, name: string): unknown {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, name)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/**
 * A checkbox drawn by views/partials/form-field.ejs (a hidden "off" before it): ticked, unticked, or
 * undefined when the post did not carry the form at all (then nothing changes).
 */
export function checkbox(body: unknown, name: string): boolean | undefined {
  const value = lastValue(body, name);
  return value === undefined ? undefined : value === 'on';
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
export function pageOf<T>(schema: ZodType, query: unknown): { query: T; error: string | null } {
  const given = Object.fromEntries(Object.entries((query ?? {}) as Record<string, unknown>).filter(([name, value]) => value !== '' && name !== 'notice'));
  const parsed = schema.safeParse(given);
  if (parsed.success) return { query: parsed.data as T, error: null };
  const problems = Object.entries(fieldErrors(parsed.error)).map(([field, message]) => `${field} ${message}`);
  return { query: schema.parse({}) as T, error: `Filter ignored: ${problems.join('; ')}` };
}

/**
 * A delete form's post: as formPost, except that a target already gone (the second of a double click,
 * or another admin was first) is the outcome asked for, so the browser goes back to the list saying so
 * instead of landing on a "Not found" page.
 */
export function deletePost(list: { path: string; gone: NoticeCode }, handle: RequestHandler, redraw: FormRedraw): RequestHandler {
  return formPost(async (req, res, next) => {
    try {
      await handle(req, res, next);
    } catch (err) {
      if (!(err instanceof AppError && err.status === 404)) throw err;
      res.redirect(303, withNotice(list.path, list.gone));
    }
  }, redraw);
}
