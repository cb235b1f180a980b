import v8 from 'node:v8';
import type { AddressInfo } from 'node:net';
import { loadConfig, ConfigError, type Config } from './config/config';
import { createProcessLogger } from './logger';
import { createSequelize } from './db/sequelize';
import { migrate } from './db/migrate';
import { defineModels } from './models';
import { createStore } from './store';
import { createApp, outboxOf, searchIndexOf } from './app';
import { loadProfileDefinition } from './config/auth-config';
import type { NormalizedProfileDefinition } from './profiles/profile-types';
import { trackForGracefulShutdown } from './graceful-shutdown';
import { createHttpServer } from './http/http-server';
import { createRetention, retentionRules } from './services/operations/retention';
import { standaloneSigningKeys } from './services/security/signing-key-start';
import { createProviderKeys } from './services/oidc-provider/provider-keys';

/**
 * V8 lets the old generation grow to up to four times what the last full collection kept before it
 * collects again. Under 50 concurrent `/auth/me` requests part of each request's allocations outlives the
 * young generation and is promoted, so whether the old generation is collected early or late in a burst
 * decides the peak: with V8's default growth the bench measured 130–132 MiB in four runs and 169–184 MiB
 * in two (before requests kept one shape, 210–230 MiB). Growth capped at 1.75 times the live size: 143–147
 * MiB in nine runs, for about 1 % more CPU per request (A/B, alternating rounds). V8 reads this at every
 * collection, so setting it here takes effect; a --heap-growing-percent on the command line wins (an
 * operator who prefers CPU to memory).
 */
const HEAP_GROWING_PERCENT = 75;

function boundHeapGrowth(): void {
  if (process.execArgv.some((arg) => /^--heap[-_]growing[-_]percent/.test(arg))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

function readConfig(): { config: Config; profileDefinition: NormalizedProfileDefinition } {
  try {
    const config = loadConfig();
    return { config, profileDefinition: loadProfileDefinition(config.authConfigPath) };
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** Opens the connections, applies pending migrations, listens, and closes everything on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  boundHeapGrowth();
  const { config, profileDefinition } = readConfig();
  const logger = createProcessLogger(config.logLevel, config.logFormat);
  for (const warning of config.warnings) logger.warn(warning);

  const sequelize = createSequelize(config.databaseUrl, logger, config.databaseReadUrls);
  await migrate(sequelize, logger);
  const models = defineModels(sequelize);
  const store = await createStore(config.redisUrl, logger);
  // CONTRACT 11: every stored signing key must open under JWT_SECRET (else the start stops, naming the key),
  // and an asymmetric JWT_ALGORITHM gets its first key here rather than at the first sign-in.
  // The OpenID Provider's keys too (CONTRACT 14, RS256 and ES256): made at the first start, opened under JWT_SECRET at every start.
  const prepareKeys = async () => {
    await standaloneSigningKeys({ config, sequelize, models, store, logger }).prepare();
    await createProviderKeys({ models, store, jwtSecret: config.jwtSecret, logger }).current();
  };
  await prepareKeys().catch(async (err: unknown) => {
    await Promise.allSettled([store.close(), sequelize.close()]);
    throw err;
  });
  let draining = false;
  const app = createApp({ config, logger, sequelize, models, store, profileDefinition, isDraining: () => draining });
  const outbox = outboxOf(app);
  const searchIndex = searchIndexOf(app);
  const retention = createRetention({ rules: retentionRules(models, config), store, logger });

  const server = createHttpServer(app);
  const { shutdown } = trackForGracefulShutdown(server, {
    logger,
    graceMs: config.shutdownGraceMs,
    onDrain: () => {
      draining = true;
    },
    closeResources: async () => {
      // A run in progress ends its batch first: its DELETE needs the database and its lock the store.
      await retention.stop();
      // Its round in progress records its outcomes first; what it had not claimed waits in the outbox for any instance.
      await outbox.stop();
      // Its batch in progress commits; users still pending are found by the search and filled by any instance later.
      await searchIndex.stop();
      await Promise.all([store.close(), sequelize.close()]);
    },
  });
  // A port already taken (another instance, an old process) fails the start with one line, like any other start failure.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (err: unknown) => {
    await Promise.allSettled([store.close(), sequelize.close()]);
    throw err;
  });
  // The bound port, not the configured one: PORT=0 picks a free port (tests read it from this line).
  const { port } = server.address() as AddressInfo;
  logger.info({ port, host: config.host, database: sequelize.getDialect(), store: store.kind }, 'listening');
  retention.start();
  outbox.start();
  searchIndex.start();
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`Start failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
