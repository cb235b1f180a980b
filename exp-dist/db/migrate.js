"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.createMigrator = createMigrator;
exports.migrate = migrate;
const node_path_1 = __importDefault(require("node:path"));
const sequelize_1 = require("sequelize");
const umzug_1 = require("umzug");
const MIGRATIONS_DIR = node_path_1.default.resolve(__dirname, '../../migrations');
/**
 * The same plain-JS migrations that sequelize-cli runs, applied by the service at start.
 * SequelizeStorage keeps its ledger in `SequelizeMeta`, the table sequelize-cli reads, so both agree.
 */
function createMigrator(sequelize, logger) {
    return new umzug_1.Umzug({
        migrations: {
            glob: ['*.js', { cwd: MIGRATIONS_DIR }],
            resolve: ({ name, path: file, context }) => {
                // eslint-disable-next-line @typescript-eslint/no-require-imports
                const migration = require(file);
                return {
                    name,
                    up: () => migration.up(context, sequelize_1.Sequelize),
                    down: () => migration.down(context, sequelize_1.Sequelize),
                };
            },
        },
        context: sequelize.getQueryInterface(),
        storage: new umzug_1.SequelizeStorage({ sequelize, tableName: 'SequelizeMeta' }),
        logger: logger
            ? { info: (m) => logger.info(m), warn: (m) => logger.warn(m), error: (m) => logger.error(m), debug: () => { } }
            : undefined,
    });
}
/** Applies every pending migration. */
async function migrate(sequelize, logger) {
    await createMigrator(sequelize, logger).up();
}
//# sourceMappingURL=migrate.js.map