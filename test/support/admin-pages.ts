import type { Response } from 'supertest';
import { ctx } from './context';
import { createTestUser, tokenFor, type TestUserOverrides } from './users';
import { createCsrf } from '../../src/middleware/csrf';
import type { Role, User } from '../../src/models';

/** A signed-in browser for page tests: the Cookie header it sends and the `_csrf` value its forms carry. */
export interface PageSession {
  user: User;
  cookie: string;
  csrf: string;
}

/** The cookies a browser holds after signing in as this (existing) user. */
export async function sessionFor(user: User): Promise<PageSession> {
  const c = ctx();
  // Issuing a CSRF token needs only the secret (the token service is for reading auth cookies): the app's own.
  const csrf = createCsrf({ secret: c.config.jwtSecret, tokens: { signedSubject: async () => null } }).issue(user.id);
  const token = await tokenFor(user);
  return { user, cookie: `auth_token=${token}; csrf_token=${encodeURIComponent(csrf)}`, csrf };
}

/** A new user with the role, signed in. */
export async function signedIn(role: Role, overrides: TestUserOverrides = {}): Promise<PageSession> {
  return sessionFor(await createTestUser(role, overrides));
}

/** The path and query of a redirect answer. */
export function location(res: Response): string {
  return res.headers.location as string;
}

/** A urlencoded form body as a browser sends it (repeated keys for lists). */
export function formBody(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
  }
  return params.toString();
}
