import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { Sequelize, Transaction } from 'sequelize';
import type { Config } from '../../config/config';
import type { Models } from '../../models';
import type { OutboxEntry, WebhookEndpoint } from '../../models/outbox';
import type { KeyValueStore } from '../../store';
import { createSharedVersion } from '../../store/shared-version';
import type { ActivityService } from './activity.service';
import type { AdminAudit } from '../../http/request-context';
import type { Mailer } from './mailer';
import type { AttemptOutcome, Outbox } from './outbox';
import { AppError } from '../../http/app-error';
import { OUTBOUND_MESSAGES, outboundUrlRefusal } from '../../http/outbound-url';
import { createSealedBox } from '../../credentials/sealed-box';
import { sendSigned } from './webhook-sender';
import { TEST_EVENT, eventUser, type EventType } from './webhook-events';
import { deliveryView, view, type DeliveryView, type WebhookView } from './webhook-views';

export type { DeliveryView, WebhookView } from './webhook-views';

export const WEBHOOK_MESSAGES = {
  notFound: 'Webhook not found',
  deliveryNotFound: 'Delivery not found',
  httpsRequired: 'must be an https URL',
  notHttp: 'must be an http or https URL',
  disabled: 'The webhook is disabled: enable it first',
  gone: 'the receiver answered 410 Gone',
  failingTooLong: 'every delivery failed for three days',
} as const;

/** How long the previous secret signs beside the new one after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** An endpoint whose every delivery failed this long is disabled and the admins are told. */
const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3_600_000;
const VERSION_KEY = 'webhooks:version';
/** The bound on a copy's age whatever the version says (a row written by another program). */
const COPY_MAX_AGE_MS = 30_000;

export interface WebhookInput {
  url: string;
  events: string[];
  description?: string | null;
  active?: boolean;
}

/** A fresh signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
function newSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`;
}

/**
 * Webhook endpoints and the events they receive (CONTRACT 16). `record` is how any part of the service fires an
 * event: inside the transaction of the change, and only when an active endpoint subscribes to that type (a
 * small set cached in each process under a version kept in the shared store), so a sign-in costs nothing more
 * while nobody listens. Deliveries go through the outbox; `deliver` is its handler for webhooks.
 */
export function createWebhookService(deps: {
  config: Pick<Config, 'jwtSecret' | 'isProduction' | 'allowPrivateOutbound' | 'webhookTimeoutMs'>;
  sequelize: Sequelize;
  models: Models;
  store: KeyValueStore;
  outbox: Outbox;
  activity: Pick<ActivityService, 'record'>;
  mailer: Pick<Mailer, 'send'>;
  logger: Logger;
}) {
  const { config, sequelize, models, store, outbox, activity, mailer } = deps;
  const log = deps.logger.child({ component: 'webhooks' });
  // Secrets at rest, bound to the endpoint's id: a dump of the table alone signs nothing.
  const sealing = createSealedBox({ secret: config.jwtSecret, salt: 'auth-service', info: 'webhook-secrets.v1', layout: 'tag-last' });
  let copy: { version: string; readAt: number; endpoints: Array<{ id: string; events: string[] }> } | undefined;

  const shared = createSharedVersion(store, VERSION_KEY);

  /** After a committed change to endpoints: every instance reads them again on its next event. */
  async function changed(): Promise<void> {
    copy = undefined;
    sending = undefined;
    try {
      await shared.bump();
    } catch (err) {
      log.warn({ err: (err as Error).message }, `key-value store unavailable: other instances see the webhook change within ${COPY_MAX_AGE_MS / 1000} s`);
    }
  }

  /**
   * The active endpoints subscribed to `type`, from this process's copy while its version is current. Read in
   * the caller's transaction when there is one: on SQLite a read on another connection could queue behind a
   * write that waits for this very transaction.
   */
  async function subscribers(type: string, transaction?: Transaction | null): Promise<string[]> {
    const version = await shared.current();
    if (version === null || !copy || copy.version !== version || Date.now() - copy.readAt >= COPY_MAX_AGE_MS) {
      const rows = await models.WebhookEndpoint.findAll({ attributes: ['id', 'events'], where: { active: true }, transaction: transaction ?? undefined });
      const endpoints = rows.map((row) => ({ id: row.id, events: row.events }));
      copy = version === null ? undefined : { version, readAt: Date.now(), endpoints };
      return endpoints.filter((endpoint) => endpoint.events.includes('*') || endpoint.events.includes(type)).map((endpoint) => endpoint.id);
    }
    return copy.endpoints.filter((endpoint) => endpoint.events.includes('*') || endpoint.events.includes(type)).map((endpoint) => endpoint.id);
  }

  /** Whether some active endpoint takes `type`: a caller may skip work (a transaction, a read) the event alone needs. */
  async function listens(type: EventType, transaction?: Transaction | null): Promise<boolean> {
    return (await subscribers(type, transaction)).length > 0;
  }

  function body(type: string, data: Record<string, unknown>): string {
    return JSON.stringify({ type, timestamp: new Date().toISOString(), data });
  }

  /**
   * Fires an event: one delivery per subscribed endpoint, written in `transaction` (so a rollback sends
   * nothing and a commit loses nothing). `data` names the user, session or key and the acting user; never
   * a password, hash, token, code, link or secret.
   */
  async function record(type: EventType, data: Record<string, unknown>, options: { transaction?: Transaction | null } = {}): Promise<void> {
    const endpoints = await subscribers(type, options.transaction);
    if (endpoints.length === 0) return;
    const payload = body(type, data);
    await outbox.add(endpoints.map((endpointId) => ({ kind: 'webhook' as const, eventType: type, payload, endpointId })), options.transaction);
  }

  /**
   * `record` for an event about one user the caller knows only by id: the user is read (in the transaction)
   * only when some endpoint listens, so the path costs nothing more otherwise.
   */
  async function recordForUser(type: EventType, userId: string, data: Record<string, unknown>, options: { transaction?: Transaction | null } = {}): Promise<void> {
    if (!(await listens(type, options.transaction))) return;
    const user = await models.User.findByPk(userId, { attributes: ['id', 'email', 'username', 'role'], transaction: options.transaction ?? undefined });
    if (user) await record(type, { user: eventUser(user), ...data }, options);
  }

  async function checkUrl(value: string): Promise<void> {
    const url = URL.canParse(value) ? new URL(value) : null;
    if (!url) throw AppError.validation({ url: OUTBOUND_MESSAGES.invalid });
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw AppError.validation({ url: WEBHOOK_MESSAGES.notHttp });
    if (config.isProduction && url.protocol !== 'https:') throw AppError.validation({ url: WEBHOOK_MESSAGES.httpsRequired });
    const refusal = config.allowPrivateOutbound ? null : await outboundUrlRefusal(value);
    if (refusal) throw AppError.validation({ url: refusal });
  }

  async function find(id: string): Promise<WebhookEndpoint> {
    const row = await models.WebhookEndpoint.findByPk(id);
    if (!row) throw AppError.notFound(WEBHOOK_MESSAGES.notFound);
    return row;
  }

  function audited(action: 'webhook.created' | 'webhook.updated' | 'webhook.deleted' | 'webhook.secret_rotated', row: WebhookEndpoint, audit: AdminAudit, extra: Record<string, unknown> = {}) {
    return activity.record({ action, userId: audit.actor.id, email: audit.actor.email, details: { webhookId: row.id, url: row.url, ...extra } }, audit.context);
  }

  async function create(input: WebhookInput, audit: AdminAudit): Promise<{ webhook: WebhookView; secret: string }> {
    await checkUrl(input.url);
    const id = crypto.randomUUID();
    const secret = newSecret();
    const row = await models.WebhookEndpoint.create({
      id,
      url: input.url,
      description: input.description ?? null,
      events: input.events,
      active: input.active ?? true,
      secretSealed: sealing.seal(secret, id),
    });
    await changed();
    await audited('webhook.created', row, audit, { events: row.events });
    return { webhook: view(row), secret };
  }

  async function list(): Promise<WebhookView[]> {
    const rows = await models.WebhookEndpoint.findAll({ order: [['createdAt', 'ASC'], ['id', 'ASC']] });
    return rows.map(view);
  }

  async function get(id: string): Promise<WebhookView> {
    return view(await find(id));
  }

  async function update(id: string, patch: Partial<WebhookInput>, audit: AdminAudit): Promise<WebhookView> {
    const row = await find(id);
    if (patch.url !== undefined && patch.url !== row.url) await checkUrl(patch.url);
    if (patch.url !== undefined) row.url = patch.url;
    if (patch.events !== undefined) row.events = patch.events;
    if (patch.description !== undefined) row.description = patch.description;
    if (patch.active !== undefined) {
      row.active = patch.active;
      // Enabled again by an admin: the failures before count no more.
      if (patch.active) {
        row.disabledReason = null;
        row.failingSince = null;
      }
    }
    await row.save();
    await changed();
    await audited('webhook.updated', row, audit, { fields: Object.keys(patch) });
    return view(row);
  }

  async function remove(id: string, audit: AdminAudit): Promise<void> {
    const row = await find(id);
    await sequelize.transaction(async (transaction) => {
      await models.OutboxEntry.destroy({ where: { endpointId: id }, transaction });
      await row.destroy({ transaction });
    });
    await changed();
    await audited('webhook.deleted', row, audit);
  }

  /** A new secret; the previous one keeps signing beside it for 24 h, so receivers can switch without a gap. */
  async function rotateSecret(id: string, audit: AdminAudit): Promise<{ webhook: WebhookView; secret: string }> {
    const row = await find(id);
    const secret = newSecret();
    row.previousSecretSealed = row.secretSealed;
    row.previousSecretUntil = new Date(Date.now() + ROTATION_OVERLAP_MS);
    row.secretSealed = sealing.seal(secret, id);
    await row.save();
    await audited('webhook.secret_rotated', row, audit);
    return { webhook: view(row), secret };
  }

  /** Queues a `webhook.test` event to this endpoint alone; its delivery id. */
  async function sendTest(id: string, audit: AdminAudit): Promise<DeliveryView> {
    const row = await find(id);
    if (!row.active) throw AppError.conflict(WEBHOOK_MESSAGES.disabled);
    const payload = body(TEST_EVENT, { webhook: { id: row.id, url: row.url }, actor: audit.actor });
    const [delivery] = await outbox.add([{ kind: 'webhook', eventType: TEST_EVENT, payload, endpointId: row.id }]);
    return deliveryView((await models.OutboxEntry.findByPk(delivery.id)) as OutboxEntry);
  }

  /** One page of an endpoint's deliveries, newest first. */
  async function deliveries(id: string, paging: { page: number; limit: number }): Promise<{ deliveries: DeliveryView[]; total: number; page: number; limit: number }> {
    await find(id);
    const { rows, count } = await models.OutboxEntry.findAndCountAll({
      where: { endpointId: id, kind: 'webhook' },
      order: [['createdAt', 'DESC'], ['id', 'DESC']],
      limit: paging.limit,
      offset: (paging.page - 1) * paging.limit,
    });
    return { deliveries: rows.map(deliveryView), total: count, ...paging };
  }

  /** Attempts a delivery again now (keeping its `webhook-id`), whatever its state. */
  async function retry(deliveryId: string): Promise<DeliveryView> {
    const row = await models.OutboxEntry.findOne({ where: { id: deliveryId, kind: 'webhook' } });
    if (!row) throw AppError.notFound(WEBHOOK_MESSAGES.deliveryNotFound);
    const endpoint = row.endpointId ? await models.WebhookEndpoint.findByPk(row.endpointId) : null;
    if (!endpoint) throw AppError.notFound(WEBHOOK_MESSAGES.deliveryNotFound);
    if (!endpoint.active) throw AppError.conflict(WEBHOOK_MESSAGES.disabled);
    await outbox.again(row.id);
    return deliveryView(await row.reload());
  }

  async function disable(endpoint: WebhookEndpoint, reason: string): Promise<void> {
    await endpoint.update({ active: false, disabledReason: reason });
    await changed();
    log.warn({ webhookId: endpoint.id, reason }, 'webhook endpoint disabled');
  }

  /** Tells every active admin that an endpoint was disabled for failing (the mail names its URL, nothing secret). */
  async function mailAdmins(endpoint: WebhookEndpoint): Promise<void> {
    const admins = await models.User.findAll({ attributes: ['email'], where: { role: 'admin', active: true } });
    const text = `The webhook endpoint ${endpoint.url} was disabled: ${WEBHOOK_MESSAGES.failingTooLong}.\nEnable it again in the admin site (Settings, Webhooks) once it answers.`;
    await Promise.all(admins.map((admin) => mailer.send({ to: admin.email, subject: 'A webhook endpoint was disabled', text })));
  }

  /**
   * An endpoint as deliveries need it, with its signing secrets opened: this process's copy while the endpoints'
   * version is current (as `subscribers` keeps), so a busy outbox neither reads the row nor opens the secrets
   * per event; any change to endpoints (disable, delete, rotation) is seen at the next delivery on every instance.
   */
  type Sending = { endpoint: WebhookEndpoint; secrets: string[] } | null;
  let sending: { version: string; readAt: number; endpoints: Map<string, Promise<Sending>> } | undefined;

  async function readSending(id: string): Promise<Sending> {
    const endpoint = await models.WebhookEndpoint.findByPk(id);
    if (!endpoint) return null;
    const rotating = endpoint.previousSecretSealed && endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date();
    const secrets = [endpoint.secretSealed, ...(rotating ? [endpoint.previousSecretSealed as string] : [])]
      .map((sealed) => sealing.open(sealed, endpoint.id)?.toString('utf8'))
      .filter((secret): secret is string => secret !== undefined);
    // A rotation's previous secret stops signing at its time, with no change to mark it: such a copy is not kept.
    if (rotating) sending?.endpoints.delete(id);
    return { endpoint, secrets };
  }

  /** Concurrent deliveries to one endpoint share one read. */
  async function sendingTo(id: string): Promise<Sending> {
    const version = await shared.current();
    if (version === null || !sending || sending.version !== version || Date.now() - sending.readAt >= COPY_MAX_AGE_MS) {
      sending = version === null ? undefined : { version, readAt: Date.now(), endpoints: new Map() };
    }
    const known = sending?.endpoints.get(id);
    if (known) return known;
    const read = readSending(id);
    sending?.endpoints.set(id, read);
    read.catch(() => sending?.endpoints.delete(id));
    return read;
  }

  /** The outbox's handler for webhook deliveries. */
  async function deliver(entry: OutboxEntry): Promise<AttemptOutcome> {
    const found = entry.endpointId ? await sendingTo(entry.endpointId) : null;
    if (!found) return { outcome: 'failed', error: 'endpoint deleted' };
    const { endpoint, secrets } = found;
    if (!endpoint.active) return { outcome: 'failed', error: 'endpoint disabled' };
    if (secrets.length === 0) return { outcome: 'failed', error: 'the signing secret does not open under JWT_SECRET' };
    const result = await sendSigned({ url: endpoint.url, id: entry.id, body: entry.payload, secrets }, { timeoutMs: config.webhookTimeoutMs, allowPrivate: config.allowPrivateOutbound });
    if (result.status !== null && result.status >= 200 && result.status <= 299) {
      if (endpoint.failingSince) await endpoint.update({ failingSince: null });
      return { outcome: 'delivered', responseStatus: result.status };
    }
    if (result.status === 410) {
      await disable(endpoint, WEBHOOK_MESSAGES.gone);
      return { outcome: 'failed', responseStatus: 410, error: WEBHOOK_MESSAGES.gone };
    }
    const error = result.status === null ? result.error : `answered ${result.status}`;
    // Kept on the copy too; another instance's earlier mark stays in the row (the copy catches up within COPY_MAX_AGE_MS).
    if (!endpoint.failingSince) {
      endpoint.failingSince = new Date();
      await models.WebhookEndpoint.update({ failingSince: endpoint.failingSince }, { where: { id: endpoint.id, failingSince: null } });
    } else if (Date.now() - endpoint.failingSince.getTime() > DISABLE_AFTER_FAILING_MS) {
      await disable(endpoint, WEBHOOK_MESSAGES.failingTooLong);
      await mailAdmins(endpoint);
      return { outcome: 'failed', responseStatus: result.status ?? undefined, error };
    }
    return { outcome: 'retry', responseStatus: result.status ?? undefined, error };
  }

  outbox.handle('webhook', deliver);

  return { record, recordForUser, listens, create, list, get, update, remove, rotateSecret, sendTest, deliveries, retry };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
/** What other parts of the service call to fire an event (h50's import too). */
export type Events = Pick<WebhookService, 'record' | 'recordForUser' | 'listens'>;
