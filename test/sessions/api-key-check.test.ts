import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import express, { type Express } from 'express';
import request from 'supertest';
import { z } from 'zod';
import { nextClientIp, proxiedApp } from '../support/auth';
import { createUserWithToken } from '../support/users';
import { listRoutes, type RouteEntry } from '../support/routes';
import { ApiDocs, createApiRouter } from '../../src/http/api-router';
import { errorHandler } from '../../src/http/error-handler';
import { createGuards } from '../../src/middleware/guards';
import { createApiKeyCheck } from '../../src/sessions/api-key-check';
import type { AuthUser } from '../../src/sessions/auth-user';
import { PERMISSIONS } from '../../src/access/permissions';

const refused = { error: 'Not allowed with an API key' };

/** Issue 44, finding 1: API keys work only where an endpoint says `apiKey: true`; everywhere else 403 (fail closed). */
describe('API keys fail closed (src/sessions/api-key-check.ts)', () => {
  describe('a route added without a word about keys', () => {
    /** A tiny app of one guarded router, its key check fed by a verifier that accepts any key. */
    function appWith(define: (api: ReturnType<typeof createApiRouter>, requireAuth: express.RequestHandler) => void): Express {
      const user = { id: crypto.randomUUID(), email: 'k@example.test', role: 'admin' } as AuthUser;
      const verifier = {
        verify: async () => ({ user, keyId: 'k1', permissions: new Set(PERMISSIONS), rate: { count: 1, limit: 100, resetAt: Date.now() + 60_000 } }),
        touch: () => undefined,
      };
      const guards = createGuards({ credentials: [createApiKeyCheck(verifier)] });
      const api = createApiRouter(new ApiDocs({ title: 't', version: '1', baseUrl: 'http://localhost' }), '/new');
      define(api, guards.requireAuth);
      const app = express();
      app.use('/new', api.router);
      app.use(errorHandler);
      return app;
    }
    const summary = { summary: 's', auth: true as const, responses: { 200: { description: 'ok', schema: z.object({ ok: z.boolean() }) } } };

    it('when a new guarded endpoint does not mark itself key-usable, then a key gets 403 "Not allowed with an API key"', async () => {
      const app = appWith((api, requireAuth) => api.get('/thing', summary, requireAuth, (_req, res) => void res.json({ ok: true })));
      const res = await request(app).get('/new/thing').set('X-API-Key', `ak_${'a'.repeat(43)}`);
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, refused);
    });

    it('when it says apiKey: true, then the key acts; a marked route that passes on to an unmarked one does not lend its mark', async () => {
      const app = appWith((api, requireAuth) => {
        api.get('/thing', { ...summary, apiKey: true }, requireAuth, (_req, res) => void res.json({ ok: true }));
        // A marked route whose handler gives the request away: the route that then judges the key is unmarked.
        api.get('/other', { ...summary, apiKey: true }, (_req, _res, next) => next());
        api.get('/other', summary, requireAuth, (_req, res) => void res.json({ ok: true }));
      });
      const key = `ak_${'a'.repeat(43)}`;
      assert.deepEqual((await request(app).get('/new/thing').set('X-API-Key', key)).body, { ok: true });
      const passedOn = await request(app).get('/new/other').set('X-API-Key', key);
      assert.equal(passedOn.status, 403);
      assert.deepEqual(passedOn.body, refused);
    });
  });

  describe('every route the app serves', () => {
    let app: Express;
    // Each request its own client address: rate limits never tell the keyed and the anonymous answer apart.
    before(() => {
      app = proxiedApp();
    });

    /** "GET /api/users/:id" for every operation the OpenAPI document lets an API key call. */
    async function keyUsableOperations(): Promise<Set<string>> {
      const doc = (await request(app).get('/api/openapi.json')).body as { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };
      const usable = new Set<string>();
      for (const [path, operations] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          if (operation.security?.some((scheme) => 'apiKeyAuth' in scheme)) usable.add(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`);
        }
      }
      return usable;
    }

    /** Concrete values for a route's parameters: the key owner's own id where a user is named, else a stranger's. */
    function concrete(route: RouteEntry, ownerId: string): string {
      return route.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => (name === 'userId' || name === 'id' ? ownerId : name === 'provider' ? 'github' : name === 'name' ? 'email' : crypto.randomUUID()));
    }

    it('when an admin key (every permission) calls each route, then only the ones marked key-usable act; all others refuse it, pages included', async () => {
      const { user, token } = await createUserWithToken('admin');
      const made = await request(app).post('/auth/api-keys').set('Authorization', `Bearer ${token}`).send({ name: 'walker' });
      assert.equal(made.status, 201);
      const key: string = made.body.key;
      const usable = await keyUsableOperations();
      // What each marked route may do with a key, as CONTRACT 11 lists: the account's own read and the API of users, content, collections, activity.
      assert.deepEqual(
        [...usable].sort(),
        [
          'DELETE /api/collections/:id', 'DELETE /api/content/:id', 'DELETE /api/users/:id',
          'GET /api/activity-logs', 'GET /api/collections', 'GET /api/content', 'GET /api/content/:id', 'GET /api/user-profiles/:userId', 'GET /api/users', 'GET /api/users/:id', 'GET /auth/me',
          'PATCH /api/users/:id',
          'POST /api/collections', 'POST /api/content', 'POST /api/users',
          'PUT /api/collections/:id', 'PUT /api/content/:id', 'PUT /api/user-profiles/:userId',
        ].sort(),
      );

      const routes = listRoutes(app);
      const refusedOn: string[] = [];
      const notRefused: string[] = [];
      for (const route of routes) {
        const name = `${route.method} ${route.path}`;
        // Deleting the key's own owner would end the walk; the route is exercised by the users tests.
        if (name === 'DELETE /api/users/:id') continue;
        const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
        const path = concrete(route, user.id);
        const res = await request(app)[method](path).set('X-Forwarded-For', nextClientIp()).set('X-API-Key', key).set('Accept', 'application/json').send({});
        const wasRefused = res.status === 403 && res.body?.error === refused.error;
        if (usable.has(name)) {
          assert.ok(!wasRefused && res.status !== 401, `${name} is key-usable but answered ${res.status} ${JSON.stringify(res.body)}`);
        } else if (wasRefused) {
          refusedOn.push(name);
        } else {
          // A route that never looks for a credential (a sign-in step, a public document) ignores the key:
          // it must answer as it answers nobody (values such as a fresh challenge aside).
          const anonymous = await request(app)[method](path).set('X-Forwarded-For', nextClientIp()).set('Accept', 'application/json').send({});
          const where = (r: request.Response) => (r.headers.location ? new URL(r.headers.location, 'http://localhost').pathname : null);
          const shape = (r: request.Response) => JSON.stringify([r.status, where(r), Object.keys(r.body ?? {}).sort(), r.body?.error ?? null]);
          if (shape(anonymous) !== shape(res)) notRefused.push(`${name}: ${shape(res)} but nobody gets ${shape(anonymous)}`);
        }
      }
      assert.deepEqual(notRefused, [], 'unmarked routes that let the key act');
      assert.ok(refusedOn.length > 40, `most routes refuse keys (${refusedOn.length} did)`);
      for (const name of ['GET /auth/api-keys', 'POST /auth/logout-all', 'GET /auth/sessions', 'PUT /api/plugins/:name', 'PUT /api/settings/security', 'POST /api/settings/keys/rotate', 'GET /admin/profile']) {
        assert.ok(refusedOn.includes(name), `${name} refuses keys`);
      }
    });
  });
});

