import type { Sequelize } from 'sequelize';
import type { KeyValueStore } from '../../store';

const CHECK_TIMEOUT_MS = 2000;

type CheckResult = 'ok' | 'unavailable';

/** Whether the service can do its work: its database and its key-value store both answer in time. */
export interface Readiness {
  ready: boolean;
  database: CheckResult;
  store: CheckResult;
  storeKind: KeyValueStore['kind'];
}

async function probe(check: () => Promise<unknown>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

/** Probes the database and the key-value store at once, each bounded by a timeout. */
export async function checkReadiness({ sequelize, store }: { sequelize: Sequelize; store: KeyValueStore }): Promise<Readiness> {
  const [database, keyValueStore] = await Promise.all([probe(() => sequelize.query('SELECT 1')), probe(() => store.ping())]);
  return { ready: database === 'ok' && keyValueStore === 'ok', database, store: keyValueStore, storeKind: store.kind };
}
