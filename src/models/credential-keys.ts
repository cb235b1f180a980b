import type { Sequelize } from 'sequelize';
import { defineApiKey, type ApiKey } from './api-key';
import { defineSigningKey, type SigningKey } from './signing-key';

export type { ApiKey, SigningKey };

/** The models of CONTRACT 11 (API keys, token signing keys), joined into Models by defineModels. */
export interface KeyModels {
  ApiKey: typeof ApiKey;
  SigningKey: typeof SigningKey;
}

export function defineKeyModels(sequelize: Sequelize): KeyModels {
  return { ApiKey: defineApiKey(sequelize), SigningKey: defineSigningKey(sequelize) };
}
