'use strict';
/*
 * `npm run keys:rotate` (CONTRACT 11): makes a new token signing key with the configuration `npm start`
 * uses (JWT_ALGORITHM, JWT_SECRET, DATABASE_URL, REDIS_URL). Every instance signs with it from its next
 * token on (with Redis; the embedded in-process store: within a minute); older keys keep verifying until
 * the last token they signed is past its expiry and refresh grace. Prints the new kid, one line.
 */
const path = require('node:path');

const DIST = path.resolve(__dirname, '..', 'dist');
const load = (name) => require(path.join(DIST, name));

async function main() {
  const { loadConfig } = load('config/config');
  const { createProcessLogger } = load('logger');
  const { createSequelize } = load('db/sequelize');
  const { migrate } = load('db/migrate');
  const { defineModels } = load('models');
  const { createStore } = load('store');
  const { standaloneSigningKeys } = load('services/security/signing-key-start');

  const config = loadConfig();
  const logger = createProcessLogger(process.env.LOG_LEVEL || 'warn', config.logFormat);
  const sequelize = createSequelize(config.databaseUrl, logger);
  const store = await createStore(config.redisUrl, logger);
  try {
    await migrate(sequelize, logger);
    const keys = standaloneSigningKeys({ config, sequelize, models: defineModels(sequelize), store, logger });
    await keys.prepare();
    const key = await keys.rotate();
    process.stdout.write(`New signing key ${key.kid} (${key.algorithm}): signing from now on\n`);
  } finally {
    await Promise.allSettled([store.close(), sequelize.close()]);
  }
}

main().catch((err) => {
  process.stderr.write(`Key rotation failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
