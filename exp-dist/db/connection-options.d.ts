/**
 * Turns DATABASE_URL (or its absence) into Sequelize options.
 * Unset: SQLite at ./data/auth.sqlite. `sqlite:<path>` or `sqlite::memory:`: SQLite there.
 * `mysql://` or `mariadb://`: MySQL/MariaDB through mysql2.
 */
export function connectionOptions(databaseUrl: any): {
    dialect: string;
    storage: string;
    transactionType: string;
    host?: undefined;
    port?: undefined;
    username?: undefined;
    password?: undefined;
    database?: undefined;
    dialectOptions?: undefined;
    define?: undefined;
    pool?: undefined;
} | {
    dialect: string;
    host: string;
    port: number;
    username: string;
    password: string;
    database: string;
    dialectOptions: {
        connectTimeout: number;
        charset: string;
    };
    define: {
        charset: string;
        collate: string;
    };
    pool: {
        max: number;
        min: number;
        acquire: number;
        idle: number;
    };
    storage?: undefined;
    transactionType?: undefined;
};
