/** Thrown when the environment is unusable; its message is the one line printed before exit. */
export declare class ConfigError extends Error {
}
export interface Config {
    env: 'development' | 'production' | 'test';
    isProduction: boolean;
    port: number;
    host: string;
    baseUrl: string;
    dataDir: string;
    databaseUrl: string | undefined;
    redisUrl: string | undefined;
    jwtSecret: string;
    externalAuthSecret: string | undefined;
    /** Lifetime and grace from the environment only; undefined means "ask the admin setting, then the default". */
    jwtExpiresIn: {
        value: string;
        seconds: number;
    } | undefined;
    jwtRefreshGraceSeconds: number | undefined;
    passwordIterations: number;
    smtpUrl: string | undefined;
    emailFrom: string | undefined;
    authConfigPath: string | undefined;
    adminEmail: string | undefined;
    adminPassword: string | undefined;
    trustProxy: boolean | number | string;
    logLevel: string;
    /** Warnings found while loading, logged once the logger exists. */
    warnings: string[];
}
/** Parses and validates the environment once; throws ConfigError naming the first bad variable. */
export declare function loadConfig(env?: NodeJS.ProcessEnv): Config;
