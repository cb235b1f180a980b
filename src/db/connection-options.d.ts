import type { Options } from 'sequelize';

export function connectionOptions(databaseUrl: string | undefined): Options & { dialect: 'sqlite' | 'mysql' };
