import { isPlainObject } from './profile-types';

/*
 * Own-property reads and writes on untrusted records: the profile data comes from API clients and HTML
 * forms, so a key such as `__proto__` or `toString` must neither be read from the prototype nor set it.
 */

/** Own-property read: an inherited `toString` must never look like a submitted value. */
export function ownValue(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/**
 * Sets a key as an own data property. Plain assignment of a hostile key such as `__proto__` would
 * invoke the prototype setter instead of recording the key; defineProperty never does.
 */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Copies own enumerable keys into a fresh plain object without triggering the __proto__ setter. */
export function copyRecord(data: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  if (!isPlainObject(data)) return copy;
  for (const key of Object.keys(data)) setOwn(copy, key, data[key]);
  return copy;
}
