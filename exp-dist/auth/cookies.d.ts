import type { Response } from 'express';
import { type Csrf } from '../middleware/csrf';
import type { IssuedToken } from './token.service';
/** Marks a response that carries or sets a credential as never to be stored by any cache (CONTRACT 2). */
export declare function noStore(res: Response): void;
/**
 * The session cookies of CONTRACT 3: `auth_token` (HttpOnly) and `csrf_token` (readable by the page),
 * both SameSite=Strict (Lax only where a cross-site redirect must carry them), Path=/, Max-Age equal to
 * the token lifetime, Secure in production.
 */
export declare function createAuthCookies(deps: {
    secure: boolean;
    csrf: Pick<Csrf, 'issue'>;
}): {
    set: (res: Response, issued: IssuedToken, sameSite?: "strict" | "lax") => void;
    clear: (res: Response) => void;
};
export type AuthCookies = ReturnType<typeof createAuthCookies>;
