import type { Role } from '../../models';
import { AppError } from '../../http/app-error';
import { EMAIL_MESSAGES, emailAddress } from '../../util/account-text';

/*
 * The fields of a new user as every creation makes them (user.service's createUser and createUsers): the input,
 * its checks, the generated username and the users row.
 */

const USERNAME_MIN = 3;
const USERNAME_MAX = 64;
const GENERATED_BASE_MAX = 48;

/** What any path that creates a user passes (register, admin API, OTP, magic link, OAuth, seed-admin). */
export interface NewUserInput {
  email: string;
  /** Plain password, hashed here; omitted/null for passwordless accounts. */
  password?: string | null;
  /** A hash made already (an import's, checked by importedHashProblem), stored as it is; `password` wins. */
  passwordHash?: string | null;
  /** When the address was proven (an import's vouched-for address); unproven when absent. */
  emailVerifiedAt?: Date | null;
  /** When the account was made elsewhere (an import); now when absent. */
  createdAt?: Date;
  /** Defaults to the email's local part, made unique. */
  username?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** Honoured for admin callers; self-registration passes none (viewer). The first user is admin regardless. */
  role?: Role;
  active?: boolean;
  avatarUrl?: string | null;
  /** Custom profile data, ALREADY validated by the caller (e.g. profiles.validateRegistration). */
  profile?: Record<string, unknown>;
}

/** A username from an email's local part: safe characters only, at least three of them. */
export function usernameBase(email: string): string {
  const local = email.split('@')[0] ?? '';
  const cleaned = local.replace(/[^a-z0-9._-]/g, '').slice(0, GENERATED_BASE_MAX);
  if (cleaned.length === 0) return 'user';
  return cleaned.length < USERNAME_MIN ? `${cleaned}_user` : cleaned;
}

/** SQLite's lower(): ASCII letters only. Usernames are compared by it, as stored keys (see storedUsernameKeys in user.service). */
export const asciiLower = (name: string): string => name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** The email rule and username length, as every creation applies them: the address's normal form and the username asked for. */
export function checkedInput(input: NewUserInput): { email: string; username: string | undefined } {
  // Every path lands here (provider profiles and stored link identifiers too): the one rule, again.
  const email = emailAddress(input.email);
  if (email === null) throw AppError.validation({ email: EMAIL_MESSAGES.invalid });
  const username = input.username?.trim();
  if (username !== undefined && username !== '' && (username.length < USERNAME_MIN || username.length > USERNAME_MAX)) {
    throw AppError.validation({ username: `must be ${USERNAME_MIN} to ${USERNAME_MAX} characters` });
  }
  return { email, username };
}

/** The users row of a new user, as createUser and createUsers write it. */
export function userRow(input: NewUserInput, fields: { id: string; email: string; username: string; passwordHash: string | null; role: Role; selfRegistered: boolean }) {
  return {
    ...fields,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    active: input.active ?? true,
    avatarUrl: input.avatarUrl ?? null,
    emailVerifiedAt: input.emailVerifiedAt ?? null,
    ...(input.createdAt ? { createdAt: input.createdAt } : {}),
  };
}
