import type { Sequelize, Transaction } from 'sequelize';
import { transactionWithRetry } from '../../db/transaction-retry';
import type { EventType } from './webhook-events';
import type { Events } from './webhooks.service';

/**
 * A change that fires `type` (CONTRACT 16): while some endpoint listens, `change` and then `event` run in one
 * transaction, so the event commits with the change or not at all; while none does, `change` runs as it is, with
 * no transaction: a single write stays one statement, not BEGIN, the write and COMMIT. `event` gets what `change`
 * answered (it may skip the event when nothing changed). Only database writes belong in `change`: on SQLite a
 * write on another connection (a store mirror, a log row without the transaction) would wait for this one.
 */
export async function changeWithEvent<T>(
  deps: { sequelize: Sequelize; events: Pick<Events, 'listens'> },
  type: EventType,
  change: (transaction?: Transaction) => Promise<T>,
  event: (changed: T, transaction: Transaction) => Promise<void>,
): Promise<T> {
  if (!(await deps.events.listens(type))) return change();
  // Run again when the database picks it as a deadlock victim (the outbox worker's claims and outcomes lock the
  // same table): a change whose event met the worker is not a failed request.
  return transactionWithRetry(deps.sequelize, async (transaction) => {
    const changed = await change(transaction);
    await event(changed, transaction);
    return changed;
  });
}
