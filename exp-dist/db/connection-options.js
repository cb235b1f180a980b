'use strict';
// Plain JS on purpose: the application and sequelize-cli (through .sequelizerc) read the same rules,
// so the CLI can never migrate a different database than the one the service uses.
const path = require('node:path');
const fs = require('node:fs');
const DEFAULT_SQLITE_FILE = path.join('data', 'auth.sqlite');
/**
 * Turns DATABASE_URL (or its absence) into Sequelize options.
 * Unset: SQLite at ./data/auth.sqlite. `sqlite:<path>` or `sqlite::memory:`: SQLite there.
 * `mysql://` or `mariadb://`: MySQL/MariaDB through mysql2.
 */
function connectionOptions(databaseUrl) {
    if (!databaseUrl || databaseUrl.startsWith('sqlite:')) {
        const target = databaseUrl ? databaseUrl.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '') : DEFAULT_SQLITE_FILE;
        const storage = target === ':memory:' ? ':memory:' : path.resolve(target || DEFAULT_SQLITE_FILE);
        if (storage !== ':memory:')
            fs.mkdirSync(path.dirname(storage), { recursive: true });
        return { dialect: 'sqlite', storage, transactionType: 'IMMEDIATE' };
    }
    const url = new URL(databaseUrl);
    return {
        dialect: 'mysql',
        host: url.hostname,
        port: url.port ? Number(url.port) : 3306,
        username: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password),
        database: url.pathname.replace(/^\//, ''),
        dialectOptions: { connectTimeout: 5000, charset: 'utf8mb4' },
        define: { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci' },
        pool: { max: 10, min: 0, acquire: 10000, idle: 10000 },
    };
}
module.exports = { connectionOptions };
//# sourceMappingURL=connection-options.js.map