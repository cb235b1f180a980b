'use strict';
/*
 * What the operator commands (`npm run keys:rotate`, `npm run users:import` / `users:export`) share: the built
 * service's modules, and its database and store opened with the configuration `npm start` uses, migrated,
 * and closed when the command is done.
 */
const path = require('node:path');

const DIST = path.resolve(__dirname, '..', 'dist');
/** A module of the build (`dist/<name>`). */
const load = (name) => require(path.join(DIST, name));

/** Runs `work({ config, logger, sequelize, models, store })` on the migrated database and the store, then closes both. */
async function withService(work) {
  const { loadConfig } = load('config/config');
  const { createProcessLogger } = load('logger');
  const { createSequelize } = load('db/sequelize');
  const { migrate } = load('db/migrate');
  const { defineModels } = load('models');
  const { createStore } = load('store');

  const config = loadConfig();
  const logger = createProcessLogger(process.env.LOG_LEVEL || 'warn', config.logFormat);
  const sequelize = createSequelize(config.databaseUrl, logger);
  const store = await createStore(config.redisUrl, logger);
  try {
    await migrate(sequelize, logger);
    return await work({ config, logger, sequelize, models: defineModels(sequelize), store });
  } finally {
    await Promise.allSettled([store.close(), sequelize.close()]);
  }
}

module.exports = { load, withService };
