import path from 'node:path';
import { Sequelize } from 'sequelize';
import { Umzug, SequelizeStorage } from 'umzug';
import type { Logger } from 'pino';

const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');

interface MigrationModule {
  up(queryInterface: unknown, sequelize: typeof Sequelize): Promise<void>;
  down(queryInterface: unknown, sequelize: typeof Sequelize): Promise<void>;
}

/**
 * The same plain-JS migrations that sequelize-cli runs, applied by the service at start.
 * SequelizeStorage keeps its ledger in `SequelizeMeta`, the table sequelize-cli reads, so both agree.
 */
export function createMigrator(sequelize: Sequelize, logger?: Logger) {
  return new Umzug({
    migrations: {
      glob: ['*.js', { cwd: MIGRATIONS_DIR }],
      resolve: ({ name, path: file, context }) => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const migration = require(file as string) as MigrationModule;
        return {
          name,
          up: () => migration.up(context, Sequelize),
          down: () => migration.down(context, Sequelize),
        };
      },
    },
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: 'SequelizeMeta' }),
    logger: logger
      ? { info: (m) => logger.info(m), warn: (m) => logger.warn(m), error: (m) => logger.error(m), debug: () => {} }
      : undefined,
  });
}

/** Applies every pending migration. */
export async function migrate(sequelize: Sequelize, logger?: Logger): Promise<void> {
  await createMigrator(sequelize, logger).up();
}
