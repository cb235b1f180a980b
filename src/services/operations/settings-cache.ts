import type { Logger } from 'pino';
import type { Models } from '../../models';
import type { KeyValueStore } from '../../store';
import { createSharedVersion } from '../../store/shared-version';

/** The shared store's key whose value changes whenever a setting is written through this service. */
const VERSION_KEY = 'settings:version';
/**
 * How long a copy is trusted at most, whatever the version says: the bound for a setting written into
 * the database by another program (sql, a seeder) while instances run. Writes through the service or
 * its models reach every instance at once.
 */
const SETTINGS_COPY_MAX_AGE_MS = 30_000;

type SettingModel = Models['Setting'];
interface Copy {
  keys: string;
  version: string;
  readAt: number;
  values: Map<string, unknown>;
}

/** One copy per model class, i.e. per database: every service over the same models shares it. */
const copies = new WeakMap<SettingModel, Copy>();
const watched = new WeakSet<SettingModel>();

/**
 * Any write through the model (this service, an admin page, a test, a seed run in this process) drops
 * the copy, after the commit when inside a transaction so a reader cannot copy the old rows again.
 */
function watchWrites(model: SettingModel): void {
  if (watched.has(model)) return;
  watched.add(model);
  const drop = (options: { transaction?: { afterCommit(fn: () => void): void } | null } | undefined) => {
    if (options?.transaction) options.transaction.afterCommit(() => copies.delete(model));
    copies.delete(model);
  };
  model.addHook('afterSave', (_row, options) => drop(options));
  model.addHook('afterUpsert', (_result, options) => drop(options));
  model.addHook('afterDestroy', (_row, options) => drop(options));
  model.addHook('afterBulkCreate', (_rows, options) => drop(options));
  model.addHook('afterBulkUpdate', (options) => drop(options));
  model.addHook('afterBulkDestroy', (options) => drop(options));
}

/**
 * The stored settings rows, read from the database only when they may have changed: sign-in, refresh
 * and registration read them on every request (a query of about 330 µs of CPU, twice per refresh).
 * A copy is kept in this process under the version found in the shared store; a write through the
 * service replaces that version (`changed`), so every instance reads the rows again on its next request.
 * The store unreadable: the rows are read every time, as without a cache.
 */
export function createSettingsCache(deps: { model: SettingModel; keys: string[]; store: KeyValueStore; logger: Logger }) {
  const { model, keys, store, logger } = deps;
  // Copies are shared per model; this names which rows a copy holds.
  const wanted = keys.join('\n');
  watchWrites(model);
  const shared = createSharedVersion(store, VERSION_KEY);

  /** The values under `keys`, from the copy when its version is current, else from the database. */
  async function read(): Promise<Map<string, unknown>> {
    // Read before the rows: a write that lands in between leaves a copy under a version already stale.
    const version = await shared.current();
    const copy = copies.get(model);
    const current = copy && copy.keys === wanted && copy.version === version && Date.now() - copy.readAt < SETTINGS_COPY_MAX_AGE_MS;
    if (version !== null && current) return copy.values;
    const rows = await model.findAll({ where: { key: keys } });
    const values = new Map(rows.map((row) => [row.key, row.value as unknown]));
    if (version !== null) copies.set(model, { keys: wanted, version, readAt: Date.now(), values });
    return values;
  }

  /** After a committed write: every instance's copy is stale from now on. */
  async function changed(): Promise<void> {
    copies.delete(model);
    try {
      await shared.bump();
    } catch (err) {
      logger.warn({ err: (err as Error).message }, `key-value store unavailable: other instances see the settings change within ${SETTINGS_COPY_MAX_AGE_MS / 1000} s`);
    }
  }

  return { read, changed };
}
