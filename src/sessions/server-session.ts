import session, { Store, type SessionData } from 'express-session';
import cookieParser from 'cookie-parser';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { KeyValueStore } from '../store';
import type { RedisStore } from '../store/redis-store';
import { AppError } from '../http/app-error';
import { BoundedMap } from '../util/bounded-map';
import type { IssuedToken } from './token.service';

export const SESSION_COOKIE = 'auth_session';
export const SESSION_MESSAGES = {
  unavailable: 'Sign-in sessions are temporarily unavailable. Please try again shortly.',
} as const;

/** Session keys in the shared store: `sess:<id>` (under the store's own prefix). */
const KEY_PREFIX = 'sess:';
/** How many signed cookie values whose signature checked are remembered, with the session id each carries. */
const RECENT_COOKIES = 1000;

declare module 'express-session' {
  interface SessionData {
    /** Who the session speaks for, and the access token it was created with (checked like any token). */
    auth?: { userId: string; token: string };
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request carried a session cookie, but the session store could not be read. */
      sessionUnavailable?: boolean;
      /** The stored session the request's `auth_session` cookie names (set by `load`; absent without one). */
      serverSession?: { id: string; auth?: SessionData['auth'] };
    }
  }
}

/**
 * express-session's Store over the in-process KeyValueStore (the embedded default, one process only).
 * Entries expire with the session cookie. No `touch`: a session's lifetime is fixed at sign-in, so a
 * request that only reads its session never writes.
 */
export class KeyValueSessionStore extends Store {
  constructor(private readonly store: KeyValueStore) {
    super();
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    this.store.get(KEY_PREFIX + sid).then(
      (raw) => callback(null, raw === null ? null : (JSON.parse(raw) as SessionData)),
      (err: unknown) => callback(err),
    );
  }

  override set(sid: string, sess: SessionData, callback?: (err?: unknown) => void): void {
    const expires = sess.cookie.expires ? new Date(sess.cookie.expires).getTime() : Date.now();
    const ttlSeconds = Math.ceil((expires - Date.now()) / 1000);
    const write = ttlSeconds > 0 ? this.store.set(KEY_PREFIX + sid, JSON.stringify(sess), ttlSeconds) : this.store.delete(KEY_PREFIX + sid);
    write.then(() => callback?.(), (err: unknown) => callback?.(err));
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.store.delete(KEY_PREFIX + sid).then(() => callback?.(), (err: unknown) => callback?.(err));
  }
}

function run(middleware: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    void middleware(req, res, (err?: unknown) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve()));
  });
}

function promised(method: (callback: (err?: unknown) => void) => unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    method((err?: unknown) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve()));
  });
}

/**
 * connect-redis over the shared ioredis client, loaded only with REDIS_URL: importing it (or the Redis
 * store's class) at the top would load ioredis into every process, Redis or not.
 */
function redisSessionStore(store: RedisStore): Store {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const RedisSessionStore = (require('connect-redis') as typeof import('connect-redis')).default;
  return new RedisSessionStore({ client: store.sessionClient(), prefix: KEY_PREFIX, disableTouch: true });
}

/**
 * Server-side sessions of magic-link sign-ins (CONTRACT 3): express-session with connect-redis on the
 * shared ioredis client (through the Redis store's guard: timeouts, fail fast) when REDIS_URL is set, else
 * the in-process store. Cookie `auth_session`,
 * HttpOnly, SameSite=Lax, Secure in production, signed with EXTERNAL_AUTH_SECRET (without it there are
 * no sessions at all). Only a request that carries the cookie ever reads the store, and only
 * `begin` (the magic-link verify route) creates a session: no other request writes.
 */
export function createServerSessions(deps: { config: Config; store: KeyValueStore; logger: Logger }) {
  const { config, store } = deps;
  const log = deps.logger.child({ component: 'server-session' });
  const secret = config.externalAuthSecret;
  const cookie = { httpOnly: true, sameSite: 'lax', secure: config.isProduction, path: '/' } as const;
  const sessionStore =
    store.kind === 'redis'
      ? redisSessionStore(store as RedisStore)
      : new KeyValueSessionStore(store);
  const middleware =
    secret === undefined
      ? null
      : session({ name: SESSION_COOKIE, secret, store: sessionStore, resave: false, saveUninitialized: false, unset: 'keep', cookie });

  function cookieValue(req: Request): string | null {
    const value = (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
    return typeof value === 'string' && value !== '' ? value : null;
  }

  /**
   * Cookie values whose signature checked, and the id each carries. The check is a function of the value and
   * the secret alone, and a browser sends the same value with every request: remembering the answer spares
   * each request an HMAC and two SHA-1 digests (cookie-signature's comparison; measured: 113–125 → 97–103 µs of
   * CPU per session request, an `auth_token` one 87–113). Only values that passed are kept, so forged ones cannot fill it.
   * The session itself is still read from the store on every request.
   */
  const verifiedCookies = new BoundedMap<string, string>(RECENT_COOKIES);

  /**
   * The session id the cookie carries, if its signature is ours: express-session's cookie format, `s:`
   * then the id and its HMAC (checked by cookie-parser in constant time). Anything else names no session.
   */
  function signedSessionId(req: Request): string | null {
    const value = cookieValue(req);
    if (secret === undefined || value === null || !value.startsWith('s:')) return null;
    const known = verifiedCookies.get(value);
    if (known !== undefined) return known;
    const id = cookieParser.signedCookie(value, secret);
    if (typeof id !== 'string' || id === '') return null;
    verifiedCookies.set(value, id);
    return id;
  }

  /**
   * App-wide, after cookie-parser: reads the stored session a signed `auth_session` cookie names into
   * `req.serverSession`; every other request passes untouched. Read straight from the session store
   * rather than through express-session, which on every request builds a Session object, hashes it on
   * load and again at the end to see whether it changed, and wraps the response: none of it needed by a
   * request that only reads (measured: a third of a session request's CPU). express-session itself runs
   * where a session is created (`ready`). A store that fails is noted on the request
   * (`sessionUnavailable`), so a request that has another credential goes on, and one relying on the
   * session gets a 503.
   */
  const load: RequestHandler = (req, _res, next) => {
    const id = signedSessionId(req);
    if (id === null) return next();
    sessionStore.get(id, (err, stored) => {
      if (err) {
        req.sessionUnavailable = true;
        log.warn({ err: { message: (err as Error).message } }, 'session store unavailable: session not loaded');
      } else if (stored) {
        req.serverSession = { id, auth: stored.auth };
      }
      next();
    });
  };

  /**
   * Before the magic-link strategy: makes sure a session can be created, so a link is never spent while
   * the store is down (503 instead; the link stays usable).
   */
  const ready: RequestHandler = async (req, res, next) => {
    if (!middleware) return next();
    try {
      if (req.sessionUnavailable) throw new Error('session store failed while loading');
      await store.ping();
      await run(middleware, req, res);
      next();
    } catch (err) {
      log.warn({ err: { message: (err as Error).message } }, 'session store unavailable: magic-link sign-in refused');
      next(AppError.serviceUnavailable(SESSION_MESSAGES.unavailable));
    }
  };

  /** Starts a fresh session (a new id, so a planted cookie is never promoted) for the issued token. */
  async function begin(req: Request, issued: IssuedToken): Promise<void> {
    if (!req.session) return;
    try {
      await promised((done) => req.session.regenerate(done));
      req.session.auth = { userId: issued.claims.sub, token: issued.token };
      // The session lives as long as the token it holds.
      req.session.cookie.maxAge = issued.expiresIn * 1000;
      await promised((done) => req.session.save(done));
    } catch (err) {
      log.warn({ err: { message: (err as Error).message } }, 'could not store a session');
      throw AppError.serviceUnavailable(SESSION_MESSAGES.unavailable);
    }
  }

  /** Sign-out: destroys the request's session (if any) and clears the cookie. */
  async function end(req: Request, res: Response): Promise<void> {
    const current = req.serverSession;
    if (current?.auth) {
      // The token it holds is already revoked by then; a store failure here leaves only a dead record.
      await promised((done) => sessionStore.destroy(current.id, done)).catch((err: unknown) =>
        log.warn({ err: { message: (err as Error).message } }, 'could not destroy a session'),
      );
    }
    if (cookieValue(req) !== null) res.clearCookie(SESSION_COOKIE, cookie);
  }

  return { enabled: middleware !== null, load, ready, begin, end };
}

export type ServerSessions = ReturnType<typeof createServerSessions>;
