import { Sequelize } from 'sequelize';
import type { Logger } from 'pino';
/** One Sequelize instance for the process, from DATABASE_URL (SQLite file when unset). */
export declare function createSequelize(databaseUrl: string | undefined, logger: Logger): Sequelize;
