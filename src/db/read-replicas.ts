import { AsyncLocalStorage } from 'node:async_hooks';
import type { Sequelize } from 'sequelize';

/**
 * Which reads may go to a MySQL read replica (DATABASE_READ_URLS). Sequelize's own default sends every SELECT
 * outside a transaction to a replica; here it is the other way round: a read goes to the primary unless it
 * runs inside `readsMayLag` and its request has written nothing yet. So a sign-in, a token check, a
 * revocation or permission check, a settings read, and anything a request reads after its own write see the
 * primary without anyone having to remember to ask; only the lists, searches and the activity log that
 * opt in (and can show a second-old state) read a replica.
 */

interface Scope {
  /** Set by `readsMayLag`: SELECTs in here may read a replica. */
  mayLag: boolean;
  /** The request's scope (the outermost one): where a write is noted for every later read of the request. */
  request: { wrote: boolean };
}

const scopes = new AsyncLocalStorage<Scope>();

/** Runs `next` (the rest of a request) in a scope of its own, so a write in it sends the request's later reads to the primary. */
export function databaseRequestScope(next: () => void): void {
  scopes.run({ mayLag: false, request: { wrote: false } }, next);
}

/** Runs `read` allowing its SELECTs to read a replica, unless the request has already written (then the primary). */
export function readsMayLag<T>(read: () => Promise<T>): Promise<T> {
  const outer = scopes.getStore();
  if (outer?.request.wrote) return read();
  return scopes.run({ mayLag: true, request: outer?.request ?? { wrote: false } }, read);
}

/** Acquire options as Sequelize passes them to its `beforePoolAcquire` hook (mutable: `useMaster` decides the pool). */
interface AcquireOptions {
  type?: string;
  useMaster?: boolean;
}

/**
 * Makes the primary the default for reads of a Sequelize with `replication` (see above). Writes (and
 * transactions, which Sequelize opens on the write pool) mark the request as having written.
 */
export function routeReads(sequelize: Sequelize): void {
  sequelize.addHook('beforePoolAcquire', (options?: AcquireOptions) => {
    if (!options) return;
    const scope = scopes.getStore();
    if (options.type !== 'SELECT') {
      if (scope) scope.request.wrote = true;
      return;
    }
    if (!scope?.mayLag || scope.request.wrote) options.useMaster = true;
  });
}
