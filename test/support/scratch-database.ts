import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';

/** A database of a test's own beside the run's: for a service process whose writes must not reach other tests. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** On the run's MySQL/MariaDB server when DATABASE_URL names one, else a temporary SQLite file. */
export async function createScratchDatabase(label: string): Promise<ScratchDatabase> {
  const base = process.env.DATABASE_URL;
  if (base && /^(mysql|mariadb):/.test(base)) {
    const server = new URL(base);
    const connection = await mysql.createConnection({
      host: server.hostname,
      port: Number(server.port || 3306),
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
    });
    const name = `auth_${label}_${crypto.randomBytes(4).toString('hex')}`;
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    server.pathname = `/${name}`;
    return {
      url: server.toString(),
      drop: async () => {
        await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await connection.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `auth-${label}-`));
  return { url: `sqlite:${path.join(dir, 'auth.sqlite')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}
