"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const node_http_1 = __importDefault(require("node:http"));
const config_1 = require("./config/config");
const logger_1 = require("./logger");
const sequelize_1 = require("./db/sequelize");
const migrate_1 = require("./db/migrate");
const models_1 = require("./models");
const store_1 = require("./store");
const app_1 = require("./app");
const auth_config_1 = require("./config/auth-config");
const SHUTDOWN_GRACE_MS = 10_000;
function readConfig() {
    try {
        const config = (0, config_1.loadConfig)();
        return { config, profileDefinition: (0, auth_config_1.loadProfileDefinition)(config.authConfigPath) };
    }
    catch (err) {
        if (err instanceof config_1.ConfigError) {
            process.stderr.write(`${err.message}\n`);
            process.exit(1);
        }
        throw err;
    }
}
/** Opens the connections, applies pending migrations, listens, and closes everything on SIGTERM/SIGINT. */
async function main() {
    const { config, profileDefinition } = readConfig();
    const logger = (0, logger_1.createLogger)(config.logLevel);
    for (const warning of config.warnings)
        logger.warn(warning);
    const sequelize = (0, sequelize_1.createSequelize)(config.databaseUrl, logger);
    await (0, migrate_1.migrate)(sequelize, logger);
    const models = (0, models_1.defineModels)(sequelize);
    const store = await (0, store_1.createStore)(config.redisUrl, logger);
    const app = (0, app_1.createApp)({ config, logger, sequelize, models, store, profileDefinition });
    const server = node_http_1.default.createServer(app);
    server.listen(config.port, config.host, () => {
        logger.info({ port: config.port, host: config.host, database: sequelize.getDialect(), store: store.kind }, 'listening');
    });
    let stopping = false;
    const shutdown = (signal) => {
        if (stopping)
            return;
        stopping = true;
        logger.info({ signal }, 'shutting down');
        setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
        server.close(async () => {
            await Promise.allSettled([store.close(), sequelize.close()]);
            process.exit(0);
        });
        server.closeIdleConnections();
    };
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    process.on('SIGINT', () => shutdown('SIGINT'));
}
main().catch((err) => {
    process.stderr.write(`Start failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
});
//# sourceMappingURL=server.js.map