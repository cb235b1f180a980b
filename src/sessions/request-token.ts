import type { Request } from 'express';

export const AUTH_COOKIE = 'auth_token';
/** The header an API key may come in (CONTRACT 11), as Node lower-cases it; `Authorization: Bearer ak_…` works too. */
export const API_KEY_HEADER = 'x-api-key';

/** The access token of a request: the Bearer header wins over the cookie; never the query string. */
export function extractToken(req: Request): string | null {
  const header = req.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? match[1] : null;
  }
  const cookie = (req.cookies as Record<string, unknown> | undefined)?.[AUTH_COOKIE];
  return typeof cookie === 'string' && cookie.length > 0 ? cookie : null;
}
