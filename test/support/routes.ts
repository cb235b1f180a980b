import type { Express } from 'express';

export interface RouteEntry {
  method: string;
  /** Express path pattern, e.g. `/api/users/:id`. */
  path: string;
}

interface LayerLike {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean>; stack: LayerLike[] };
  handle?: { stack?: LayerLike[] };
}

function join(prefix: string, path: string): string {
  const joined = `${prefix}/${path}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

/** Every route the app answers (routers walked recursively, mount paths included), from Express 5's router stack. */
export function listRoutes(app: Express): RouteEntry[] {
  const found = new Map<string, RouteEntry>();
  const walk = (stack: LayerLike[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route && typeof layer.route.path === 'string') {
        for (const method of Object.keys(layer.route.methods)) {
          if (method === '_all') continue;
          const entry = { method: method.toUpperCase(), path: join(prefix, layer.route.path) };
          found.set(`${entry.method} ${entry.path}`, entry);
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, typeof layer.rawPath === 'string' ? join(prefix, layer.rawPath) : prefix);
      }
    }
  };
  walk((app as unknown as { router: { stack: LayerLike[] } }).router.stack, '');
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
