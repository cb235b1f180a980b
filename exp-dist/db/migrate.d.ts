import { Sequelize } from 'sequelize';
import { Umzug } from 'umzug';
import type { Logger } from 'pino';
/**
 * The same plain-JS migrations that sequelize-cli runs, applied by the service at start.
 * SequelizeStorage keeps its ledger in `SequelizeMeta`, the table sequelize-cli reads, so both agree.
 */
export declare function createMigrator(sequelize: Sequelize, logger?: Logger): Umzug<import("sequelize").QueryInterface>;
/** Applies every pending migration. */
export declare function migrate(sequelize: Sequelize, logger?: Logger): Promise<void>;
