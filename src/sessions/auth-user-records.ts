import type { Sequelize } from 'sequelize';
import { preparedStatements } from '../db/prepared-statements';
import type { Role } from '../models';
import type { AuthUser } from './auth-user';

/** A user as a sign-in or a token check reads them: who they are, and what decides whether they may sign in. */
export interface AuthUserRecord {
  user: AuthUser;
  active: boolean;
  passwordHash: string | null;
}

interface AuthUserRow {
  id: string;
  email: string;
  username: string;
  first_name: string | null;
  last_name: string | null;
  role: Role;
  /** 0/1 on both dialects (SQLite INTEGER, MariaDB TINYINT(1)). */
  active: number | boolean;
  token_epoch: number | string;
  password_hash: string | null;
  email_verified_at: string | Date | null;
  /** When TOTP was turned on (the one second factor that stands alone); null when it is off. */
  two_factor_enabled_at: string | Date | null;
  /** The profile's JSON text; null when the user has no profile row. */
  profile_data: string | null;
}

/*
 * The one read of the signing-in user for the password, one-time-code and magic-link sign-ins, the token
 * check on a verification-cache miss and refresh. Hand-written, unlike the rest of the service's reads,
 * because every password sign-in and every cache miss runs it: Sequelize's `findOne` with the profile
 * included cost 820 µs of main-thread CPU and 620 µs on the thread pool per call (SQLite; measured), this
 * statement 100 and 70, and each saved millisecond is a millisecond more for hashing. Identifiers stay
 * unquoted on purpose: Sequelize's SQLite dialect reads a table's column types (PRAGMA table_info, one more
 * pool job) before any SELECT whose FROM names a backquoted table, and no column here needs a type
 * conversion beyond the three in `toRecord`.
 * Columns as created by the migrations of `users`, `user_profiles` and `two_factor`: whether a second factor is on
 * is read here too, so neither a sign-in without one nor a cached `/auth/me` asks the database again.
 */
const SELECT_AUTH_USER = `SELECT u.id, u.email, u.username, u.first_name, u.last_name, u.role, u.active, u.token_epoch,
  u.password_hash, u.email_verified_at, p.data AS profile_data,
  (SELECT tf.enabled_at FROM two_factor tf WHERE tf.user_id = u.id) AS two_factor_enabled_at
  FROM users u LEFT JOIN user_profiles p ON p.user_id = u.id WHERE`;

function toRecord(row: AuthUserRow): AuthUserRecord {
  const profileData = row.profile_data === null ? {} : (JSON.parse(row.profile_data) as Record<string, unknown>);
  return {
    user: {
      id: row.id,
      email: row.email,
      username: row.username,
      firstName: row.first_name,
      lastName: row.last_name,
      role: row.role,
      tokenEpoch: Number(row.token_epoch),
      profileData,
      emailVerified: row.email_verified_at !== null,
      twoFactorEnabled: row.two_factor_enabled_at !== null,
    },
    active: Number(row.active) === 1,
    passwordHash: row.password_hash,
  };
}

/** Reads the signed-in user's record by email (sign-in) or by id (token check, refresh). Never writes. */
export function createAuthUserRecords(sequelize: Sequelize) {
  async function one(condition: 'u.email = ?' | 'u.id = ?', value: string): Promise<AuthUserRecord | null> {
    const rows = await preparedStatements(sequelize).select<AuthUserRow>(`${SELECT_AUTH_USER} ${condition}`, [value]);
    return rows.length === 0 ? null : toRecord(rows[0]);
  }

  return {
    /** `email` already normalised (lower case, trimmed), as stored. */
    byEmail: (email: string) => one('u.email = ?', email),
    byId: (id: string) => one('u.id = ?', id),
  };
}

export type AuthUserRecords = ReturnType<typeof createAuthUserRecords>;
