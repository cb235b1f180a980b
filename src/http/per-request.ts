/**
 * A value worked out at most once per request and shared by every step that needs it (a guard, a strategy, a
 * page), kept beside the request rather than on it: request objects keep one shape. The WeakMap lets the value
 * go with its request; nothing outlives it, so each request still reads what is current.
 */
export function oncePerRequest<T>(compute: () => Promise<T>): (req: object) => Promise<T> {
  const values = new WeakMap<object, Promise<T>>();
  return (req) => {
    let value = values.get(req);
    if (!value) values.set(req, (value = compute()));
    return value;
  };
}
