import type { OutboxEntry, WebhookEndpoint } from '../../models/outbox';

/* How endpoints and their deliveries are shown, in the API and on the admin page (CONTRACT 16): never a secret. */

export interface WebhookView {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  active: boolean;
  disabledReason: string | null;
  /** While a rotation's previous secret still signs: until when (ISO 8601). */
  previousSecretUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryView {
  id: string;
  event: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
}

export function view(row: WebhookEndpoint): WebhookView {
  const rotating = row.previousSecretUntil && row.previousSecretUntil > new Date() ? row.previousSecretUntil.toISOString() : null;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    active: row.active,
    disabledReason: row.disabledReason,
    previousSecretUntil: rotating,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function deliveryView(row: OutboxEntry): DeliveryView {
  return {
    id: row.id,
    event: row.eventType,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    error: row.lastError,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
  };
}
