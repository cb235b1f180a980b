/*
 * The vocabulary of CONTRACT 16's events: their types and how an event names a user. Apart from the webhook
 * service so the services that fire events import only this and the recorder's type.
 */

/** CONTRACT 16: the events an endpoint may subscribe to (`*`: all of them). */
export const EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deleted',
  'user.email_verified',
  'user.password_changed',
  'user.two_factor_enabled',
  'user.two_factor_disabled',
  'session.created',
  'session.revoked',
  'session.reuse_detected',
  'sign_in.failed',
  'api_key.created',
  'api_key.revoked',
  'passkey.added',
  'passkey.removed',
  'users.imported',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent to one endpoint on an admin's request, whatever it subscribes to. */
export const TEST_EVENT = 'webhook.test';

/** What an event says of the user it is about. */
export interface EventUserFields {
  id: string;
  email: string;
  username: string;
  role: string;
}

/** How the user an event is about is named in it: never a hash, token or secret. */
export function eventUser(user: EventUserFields) {
  return { id: user.id, email: user.email, username: user.username, role: user.role };
}
