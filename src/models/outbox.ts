import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { jsonColumn } from './json-column';

export const OUTBOX_KINDS = ['webhook', 'mail'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];
export const OUTBOX_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** A receiver of events (CONTRACT 16); its signing secrets are sealed under JWT_SECRET, bound to the id. */
export class WebhookEndpoint extends Model<InferAttributes<WebhookEndpoint>, InferCreationAttributes<WebhookEndpoint>> {
  declare id: string;
  declare url: string;
  declare description: string | null;
  /** Event types, or ['*'] for every one. */
  declare events: string[];
  declare active: CreationOptional<boolean>;
  declare secretSealed: string;
  /** The secret before the last rotation: it signs too until `previousSecretUntil`. */
  declare previousSecretSealed: CreationOptional<string | null>;
  declare previousSecretUntil: CreationOptional<Date | null>;
  /** Since when every attempt failed (null: the last one was delivered). */
  declare failingSince: CreationOptional<Date | null>;
  declare disabledReason: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/**
 * One piece of durable work: a webhook delivery to one endpoint or a mail. `id` is the delivery's
 * `webhook-id` (kept across retries). A mail's payload is sealed (it carries codes and links).
 */
export class OutboxEntry extends Model<InferAttributes<OutboxEntry>, InferCreationAttributes<OutboxEntry>> {
  declare id: string;
  declare kind: OutboxKind;
  declare endpointId: string | null;
  declare eventType: string;
  declare payload: string;
  declare status: CreationOptional<OutboxStatus>;
  declare attempts: CreationOptional<number>;
  declare nextAttemptAt: Date;
  declare claimedUntil: CreationOptional<Date | null>;
  declare lastAttemptAt: CreationOptional<Date | null>;
  declare responseStatus: CreationOptional<number | null>;
  declare lastError: CreationOptional<string | null>;
  /** After this the work is worthless (a mail's code or link expired): failed rather than retried. */
  declare expiresAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export interface OutboxModels {
  WebhookEndpoint: typeof WebhookEndpoint;
  OutboxEntry: typeof OutboxEntry;
}

/** Binds fresh subclasses to the Sequelize instance; the columns mirror migration 20261128006000. */
export function defineOutboxModels(sequelize: Sequelize): OutboxModels {
  const WebhookEndpointM = class extends WebhookEndpoint {};
  const OutboxEntryM = class extends OutboxEntry {};
  WebhookEndpointM.init(
    {
      id: { type: DataTypes.STRING(36), primaryKey: true, allowNull: false },
      url: { type: DataTypes.STRING(2048), allowNull: false },
      description: { type: DataTypes.STRING(255), allowNull: true },
      events: jsonColumn('events', []),
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      secretSealed: { type: DataTypes.TEXT, allowNull: false },
      previousSecretSealed: { type: DataTypes.TEXT, allowNull: true },
      previousSecretUntil: { type: DataTypes.DATE, allowNull: true },
      failingSince: { type: DataTypes.DATE, allowNull: true },
      disabledReason: { type: DataTypes.STRING(255), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'webhook_endpoints', underscored: true },
  );
  OutboxEntryM.init(
    {
      id: { type: DataTypes.STRING(40), primaryKey: true, allowNull: false },
      kind: { type: DataTypes.STRING(16), allowNull: false },
      endpointId: { type: DataTypes.STRING(36), allowNull: true },
      eventType: { type: DataTypes.STRING(64), allowNull: false },
      payload: { type: DataTypes.TEXT, allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'pending' },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      nextAttemptAt: { type: DataTypes.DATE, allowNull: false },
      claimedUntil: { type: DataTypes.DATE, allowNull: true },
      lastAttemptAt: { type: DataTypes.DATE, allowNull: true },
      responseStatus: { type: DataTypes.INTEGER, allowNull: true },
      lastError: { type: DataTypes.STRING(255), allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'outbox', underscored: true },
  );
  return { WebhookEndpoint: WebhookEndpointM, OutboxEntry: OutboxEntryM };
}
