import assert from 'node:assert/strict';
import http from 'node:http';
import request from 'supertest';
import type { Express } from 'express';
import { createHttpServer } from '../../src/http/http-server';
import { ctx } from '../support/context';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createUserWithToken } from '../support/users';
import { PASSWORD, cookieHeader, makeUser } from '../support/auth';
import { magicLinkApp, signInByLink } from '../support/magic-link';

/** Properties a request or response gained between its arrival and the end of its answer. */
interface Gained {
  path: string;
  request: string[];
  response: string[];
}

/** The service's server for an app, noting what each request and response gained while it was served. */
function watchedServer(app: Express): { server: http.Server; gained: Gained[] } {
  const gained: Gained[] = [];
  const server = createHttpServer(app);
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = req.url ?? '';
    const before = { request: new Set(Object.keys(req)), response: new Set(Object.keys(res)) };
    res.on('close', () => {
      gained.push({
        path,
        request: Object.keys(req).filter((key) => !before.request.has(key)),
        response: Object.keys(res).filter((key) => !before.response.has(key)),
      });
    });
  });
  return { server, gained };
}

/** Waits for the 'close' of every response sent so far (it comes just after the client has the answer). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('the service HTTP server (request and response objects of one fixed shape)', () => {
  let sink: SmtpSink;

  before(async () => {
    sink = await startSmtpSink();
  });

  after(async () => {
    await sink.stop();
  });

  it('when requests take the hot paths (token, cookie, server session, sign-in, pages, errors), then they answer as usual and no request or response gains a property', async () => {
    // Only the session-creating answer (express-session wraps res.end there, once per sign-in) is left out.
    const app = magicLinkApp(sink);
    const { server, gained } = watchedServer(app);
    const { user, token } = await createUserWithToken('viewer');
    const signedUp = await makeUser();

    assert.equal((await request(server).get('/health')).status, 200);
    const bearer = await request(server).get('/auth/me').set('Authorization', `Bearer ${token}`);
    assert.equal(bearer.status, 200);
    assert.equal(bearer.body.user.id, user.id);
    assert.equal((await request(server).get('/auth/me').set('Cookie', `auth_token=${token}`)).status, 200);
    assert.equal((await request(server).get('/auth/me').set('Cookie', 'auth_token=not-a-token; other=1')).status, 401);
    const login = await request(server).post('/auth/login').send({ email: signedUp.email, password: PASSWORD });
    assert.equal(login.status, 200);
    assert.equal((await request(server).post('/auth/login').send({ email: signedUp.email, password: 'wrong password' })).status, 401);
    assert.equal((await request(server).post('/auth/refresh').set('Authorization', `Bearer ${login.body.token}`)).status, 200);
    assert.equal((await request(server).get('/auth/login').set('Accept', 'text/html')).status, 200);
    assert.equal((await request(server).post('/auth/login').set('Content-Type', 'application/json').send('{"email":')).status, 400);
    assert.equal((await request(server).get('/no/such/route')).status, 404);

    const session = cookieHeader(await signInByLink(app, sink, signedUp.email)).split('; ').find((pair) => pair.startsWith('auth_session='));
    assert.ok(session, 'the magic link began a server session');
    const bySession = await request(server).get('/auth/me').set('Cookie', session);
    assert.equal(bySession.status, 200);
    assert.equal(bySession.body.user.id, signedUp.id);
    await settled();

    assert.equal(gained.length, 11, 'every request was watched');
    for (const { path, request: req, response: res } of gained) {
      assert.deepEqual(req, [], `${path}: request gained ${req.join(', ')}: declare it in ServiceRequest (src/http/http-server.ts)`);
      assert.deepEqual(res, [], `${path}: response gained ${res.join(', ')}: declare it in ServiceResponse (src/http/http-server.ts)`);
    }
  });

  it('when the same requests reach a plain Node server, then they do gain properties (what the fixed shape prevents)', async () => {
    const { token } = await createUserWithToken('viewer');
    const app = magicLinkApp(sink);
    const server = http.createServer(app);
    let added: string[] = [];
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const before = new Set(Object.keys(req));
      res.on('close', () => {
        added = Object.keys(req).filter((key) => !before.has(key));
      });
    });
    assert.equal((await request(server).get('/auth/me').set('Authorization', `Bearer ${token}`)).status, 200);
    await settled();
    assert.ok(added.includes('user') && added.includes('tokenClaims'), `a plain request gains properties: ${added.join(', ')}`);
  });
});

describe('the service HTTP server: idle keep-alive connections', () => {
  it('when a client reuses a connection after 6 s of quiet, then it is answered (Node’s 5 s default would have closed it under the client)', async function () {
    this.timeout(20_000);
    const server = createHttpServer(ctx().app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number | undefined; reused: boolean }>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/health', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, reused: req.reusedSocket }));
        });
        req.on('error', reject);
      });
    try {
      assert.equal((await get()).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const again = await get();
      assert.deepEqual(again, { status: 200, reused: true });
    } finally {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
