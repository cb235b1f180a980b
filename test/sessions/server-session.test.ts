import assert from 'node:assert/strict';
import type { SessionData } from 'express-session';
import { MemoryStore } from '../../src/store/memory-store';
import { KeyValueSessionStore } from '../../src/sessions/server-session';

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
