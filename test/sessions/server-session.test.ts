import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Request, Response } from 'express';
import type { SessionData } from 'express-session';
import pino from 'pino';
import type { Config } from '../../src/config/config';
import { MemoryStore } from '../../src/store/memory-store';
import { createServerSessions, KeyValueSessionStore } from '../../src/sessions/server-session';

const call = <T>(fn: (done: (err?: unknown, value?: T) => void) => void) =>
  new Promise<T | undefined>((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value))));

function sessionExpiringIn(ms: number): SessionData {
  return { cookie: { expires: new Date(Date.now() + ms), originalMaxAge: ms }, auth: { userId: 'u1', token: 't' } } as unknown as SessionData;
}

describe('KeyValueSessionStore (express-session store over the in-process store)', () => {
  it('when a session is set, then it is read back until its cookie expires, and destroy removes it', async () => {
    let now = Date.now();
    const kv = new MemoryStore(() => now);
    const store = new KeyValueSessionStore(kv);
    await call((done) => store.set('abc', sessionExpiringIn(60_000), done));
    assert.deepEqual((await call<SessionData | null>((done) => store.get('abc', done)))?.auth, { userId: 'u1', token: 't' });
    assert.ok(await kv.get('sess:abc'), 'kept under sess:<id>');

    now += 61_000;
    assert.equal(await call((done) => store.get('abc', done)), null, 'gone after the cookie expiry');

    await call((done) => store.set('def', sessionExpiringIn(60_000), done));
    await call((done) => store.destroy('def', done));
    assert.equal(await call((done) => store.get('def', done)), null);
    await kv.close();
  });

  it('when the underlying store fails, then the callback gets the error (express-session turns it into a 503 upstream)', async () => {
    const failing = new MemoryStore();
    failing.get = () => Promise.reject(new Error('store down'));
    const store = new KeyValueSessionStore(failing);
    await assert.rejects(call((done) => store.get('abc', done)), /store down/);
    await failing.close();
  });
});

describe('server sessions: reading the auth_session cookie', () => {
  const secret = 'a-secret-of-at-least-thirty-two-characters';
  let kv: MemoryStore;
  let sessions: ReturnType<typeof createServerSessions>;

  beforeEach(async () => {
    kv = new MemoryStore();
    sessions = createServerSessions({ config: { externalAuthSecret: secret, isProduction: false } as Config, store: kv, logger: pino({ level: 'silent' }) });
    const stored = { cookie: { expires: new Date(Date.now() + 60_000), originalMaxAge: 60_000 }, auth: { userId: 'u1', token: 't1' } };
    await kv.set('sess:sid-1', JSON.stringify(stored), 60);
  });
  afterEach(() => kv.close());

  /** A cookie value as express-session writes it: `s:`, the id, `.` and its HMAC-SHA256 in base64 without padding. */
  const signed = (id: string, key = secret) => `s:${id}.${crypto.createHmac('sha256', key).update(id).digest('base64').replace(/=+$/, '')}`;

  /** The request's serverSession after the app-wide load step, for a Cookie value of auth_session. */
  async function loaded(cookieValue: string): Promise<Request['serverSession']> {
    const req = { cookies: { auth_session: cookieValue } } as unknown as Request;
    await new Promise<void>((resolve) => sessions.load(req, {} as Response, () => resolve()));
    return req.serverSession;
  }

  /** How many HMACs run inside `work`. */
  async function hmacsDuring(work: () => Promise<unknown>): Promise<number> {
    const original = crypto.createHmac;
    let count = 0;
    (crypto as { createHmac: typeof crypto.createHmac }).createHmac = ((...args: Parameters<typeof crypto.createHmac>) => {
      count += 1;
      return original(...args);
    }) as typeof crypto.createHmac;
    try {
      await work();
    } finally {
      (crypto as { createHmac: typeof crypto.createHmac }).createHmac = original;
    }
    return count;
  }

  it('when a cookie signed with our secret names a stored session, then the session is loaded, its signature checked once for every later request', async () => {
    const value = signed('sid-1');
    assert.equal(await hmacsDuring(() => loaded(value)), 1);
    assert.deepEqual(await loaded(value), { id: 'sid-1', auth: { userId: 'u1', token: 't1' } });
    assert.equal(await hmacsDuring(async () => { for (let i = 0; i < 5; i++) await loaded(value); }), 0, 'a value that passed is remembered');
  });

  it('when the cookie is forged, signed with another secret, unsigned or empty, then no session is loaded, even after the real cookie was seen', async () => {
    const genuine = signed('sid-1');
    assert.ok(await loaded(genuine));
    const forged = [`${genuine.slice(0, -2)}xx`, signed('sid-1', 'another secret entirely, also long enough'), 'sid-1', 's:sid-1', ''];
    for (const value of forged) {
      assert.equal(await loaded(value), undefined, value);
      assert.equal(await loaded(value), undefined, `${value}, asked again`);
    }
  });

  it('when the session is gone from the store, then a remembered cookie loads nothing: the store is read on every request', async () => {
    const value = signed('sid-1');
    assert.ok(await loaded(value));
    await kv.delete('sess:sid-1');
    assert.equal(await loaded(value), undefined);
  });
});
