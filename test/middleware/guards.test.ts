import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import cookieParser from 'cookie-parser';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { ctx } from '../support/context';
import { createUserWithToken } from '../support/users';
import { createContainer, type Container } from '../../src/container';
import { errorHandler } from '../../src/http/error-handler';
import { PERMISSIONS, can, type Permission } from '../../src/access/permissions';
import { ROLES, type Role } from '../../src/models';

/** SPEC "Permission matrix" restated independently of the source, with CONTRACT 4's permission names. */
const EXPECTED: Record<Permission, Role[]> = {
  'manage:users': ['admin'],
  'manage:collections': ['admin'],
  'create:content': ['admin', 'editor', 'author'],
  'edit:any-content': ['admin', 'editor'],
  'edit:own-content': ['admin', 'editor', 'author'],
  'publish:content': ['admin', 'editor'],
  'delete:any-content': ['admin'],
  'delete:own-content': ['admin', 'editor'],
  'view:activity-logs': ['admin'],
  'manage:plugins': ['admin'],
  'manage:settings': ['admin'],
  'access:admin': ['admin', 'editor', 'author', 'viewer'],
};

const LOGIN_REDIRECT = {
  unauthenticated: '/auth/login?notice=sign_in_required',
  forbidden: '/auth/login?notice=forbidden',
};

// `:` would start a route parameter.
const routeName = (permission: Permission) => permission.replace(':', '_');

const ok: RequestHandler = (req, res) => {
  res.json({ userId: req.user?.id ?? null, role: req.user?.role ?? null });
};

/** A bare app with one route per guard, on the run's database and store. */
function guardedApp(): { app: Express; container: Container } {
  const c = ctx();
  const container = createContainer({ config: c.config, logger: c.logger, sequelize: c.sequelize, models: c.models, store: c.store });
  const { optionalAuth, requireAuth, requireRole, requirePermission, requireSelfOr } = container.guards;
  const app = express();
  app.set('views', path.join(__dirname, '../../views'));
  app.set('view engine', 'ejs');
  app.use(cookieParser());
  app.get('/optional', optionalAuth, ok);
  app.get('/signed-in', requireAuth, ok);
  app.get('/staff', requireRole('admin', 'editor'), ok);
  app.get('/admins', requireRole('admin'), ok);
  for (const permission of PERMISSIONS) app.get(`/permission/${routeName(permission)}`, requirePermission(permission), ok);
  app.get('/users/:userId', requireSelfOr('manage:users', 'userId'), ok);
  app.use(errorHandler);
  return { app, container };
}

describe('guards', () => {
  let app: Express;
  const tokens = {} as Record<Role, string>;

  before(async () => {
    ({ app } = guardedApp());
    for (const role of ROLES) tokens[role] = (await createUserWithToken(role)).token;
  });

  describe('permission matrix as data', () => {
    it('when every role is asked about every permission, then the answers are SPEC\'s matrix', () => {
      assert.deepEqual([...PERMISSIONS].sort(), Object.keys(EXPECTED).sort());
      for (const permission of PERMISSIONS) {
        for (const role of ROLES) {
          assert.equal(can(role, permission), EXPECTED[permission].includes(role), `${role} × ${permission}`);
        }
      }
    });

    it('when the role is unknown or an inherited property name, then it holds nothing', () => {
      for (const role of ['', 'root', 'Admin', 'constructor', '__proto__', 'toString']) {
        for (const permission of PERMISSIONS) assert.equal(can(role, permission), false, `${role} × ${permission}`);
      }
    });
  });

  describe('requireAuth', () => {
    it('when no credential is sent, then 401 JSON', async () => {
      const res = await request(app).get('/signed-in');
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: 'Authentication required' });
    });

    it('when a browser sends no credential, then 302 to the sign-in page with the reason', async () => {
      const res = await request(app).get('/signed-in').set('Accept', 'text/html,application/xhtml+xml');
      assert.equal(res.status, 302);
      assert.equal(res.headers.location, LOGIN_REDIRECT.unauthenticated);
    });

    for (const role of ROLES) {
      it(`when a ${role} sends a Bearer token, then the request passes with that user`, async () => {
        const res = await request(app).get('/signed-in').set('Authorization', `Bearer ${tokens[role]}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.role, role);
      });
    }

    it('when the token comes in the auth_token cookie, then it passes', async () => {
      const res = await request(app).get('/signed-in').set('Cookie', `auth_token=${tokens.viewer}`);
      assert.equal(res.status, 200);
    });

    it('when the token is sent in the query string, then it is ignored', async () => {
      const res = await request(app).get(`/signed-in?token=${tokens.admin}&auth_token=${tokens.admin}`);
      assert.equal(res.status, 401);
    });

    it('when the token is garbage, forged, expired, unsigned or of another algorithm, then 401', async () => {
      const { config } = ctx();
      const claims = jwt.decode(tokens.admin) as Record<string, unknown>;
      const now = Math.floor(Date.now() / 1000);
      const bad = [
        'not-a-token',
        jwt.sign(claims, 'another-secret-another-secret-xx', { algorithm: 'HS256' }),
        jwt.sign({ ...claims, iat: now - 100, exp: now - 10 }, config.jwtSecret, { algorithm: 'HS256' }),
        jwt.sign({ ...claims, exp: now + 600 }, config.jwtSecret, { algorithm: 'HS512' }),
        `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`,
        // A well-signed token whose role claim was raised: the signature no longer matches.
        tokens.viewer.replace(/^([^.]+)\.([^.]+)\./, (_m, head) => `${head}.${Buffer.from(JSON.stringify({ ...(jwt.decode(tokens.viewer) as object), role: 'admin' })).toString('base64url')}.`),
      ];
      for (const token of bad) {
        const res = await request(app).get('/signed-in').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 401, token);
        assert.deepEqual(res.body, { error: 'Authentication required' });
      }
    });

    it('when the user was deactivated or deleted, then their token is refused', async () => {
      const { models } = ctx();
      const inactive = await createUserWithToken('admin');
      await models.User.update({ active: false }, { where: { id: inactive.user.id } });
      assert.equal((await request(app).get('/signed-in').set('Authorization', `Bearer ${inactive.token}`)).status, 401);

      const deleted = await createUserWithToken('admin');
      await models.User.destroy({ where: { id: deleted.user.id } });
      assert.equal((await request(app).get('/signed-in').set('Authorization', `Bearer ${deleted.token}`)).status, 401);
    });
  });

  describe('requireRole', () => {
    for (const role of ROLES) {
      const allowed = role === 'admin' || role === 'editor';
      it(`when a ${role} asks for an admin/editor route, then ${allowed ? '200' : '403 JSON'}`, async () => {
        const res = await request(app).get('/staff').set('Authorization', `Bearer ${tokens[role]}`);
        if (allowed) {
          assert.equal(res.status, 200);
          return;
        }
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, { error: 'Insufficient permissions' });
      });

      if (!allowed) {
        it(`when a ${role} asks for it from a browser, then 302 to the sign-in page`, async () => {
          const res = await request(app).get('/staff').set('Authorization', `Bearer ${tokens[role]}`).set('Accept', 'text/html');
          assert.equal(res.status, 302);
          assert.equal(res.headers.location, LOGIN_REDIRECT.forbidden);
        });
      }
    }

    it('when nobody is signed in, then 401 (JSON) or the sign-in page (browser)', async () => {
      assert.equal((await request(app).get('/admins')).status, 401);
      const browser = await request(app).get('/admins').set('Accept', 'text/html');
      assert.equal(browser.status, 302);
      assert.equal(browser.headers.location, LOGIN_REDIRECT.unauthenticated);
    });

    it('when roles are compared, then crypto.timingSafeEqual does it, once per allowed role (no early exit)', async () => {
      const digest = (role: string) => crypto.createHash('sha256').update(role).digest('hex');
      const original = crypto.timingSafeEqual;
      let compared: string[] = [];
      crypto.timingSafeEqual = ((a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
        compared.push(`${Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex')}:${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')}`);
        return original(a, b);
      }) as typeof crypto.timingSafeEqual;
      try {
        // admin matches the first allowed role; the second is compared all the same.
        assert.equal((await request(app).get('/staff').set('Authorization', `Bearer ${tokens.admin}`)).status, 200);
        assert.ok(compared.includes(`${digest('admin')}:${digest('admin')}`));
        assert.ok(compared.includes(`${digest('admin')}:${digest('editor')}`));
        compared = [];
        assert.equal((await request(app).get('/staff').set('Authorization', `Bearer ${tokens.viewer}`)).status, 403);
        assert.ok(compared.includes(`${digest('viewer')}:${digest('admin')}`));
        assert.ok(compared.includes(`${digest('viewer')}:${digest('editor')}`));
      } finally {
        crypto.timingSafeEqual = original;
      }
    });

    it('when the stored role differs from the token\'s role claim, then the stored role decides', async () => {
      const { models } = ctx();
      const { user, token } = await createUserWithToken('admin');
      await models.User.update({ role: 'viewer' }, { where: { id: user.id } });
      // Warm the cache first would hide the change: here the first use reads the stored row.
      const res = await request(app).get('/admins').set('Authorization', `Bearer ${token}`);
      assert.equal(res.status, 403);
    });
  });

  describe('requirePermission', () => {
    for (const permission of PERMISSIONS) {
      it(`when each role asks for ${permission}, then exactly ${EXPECTED[permission].join(', ')} pass; the rest get 403 or the sign-in page`, async () => {
        for (const role of ROLES) {
          const res = await request(app).get(`/permission/${routeName(permission)}`).set('Authorization', `Bearer ${tokens[role]}`);
          if (EXPECTED[permission].includes(role)) {
            assert.equal(res.status, 200, `${role} × ${permission}`);
            continue;
          }
          assert.equal(res.status, 403, `${role} × ${permission}`);
          assert.deepEqual(res.body, { error: 'Insufficient permissions' });
          const browser = await request(app).get(`/permission/${routeName(permission)}`).set('Authorization', `Bearer ${tokens[role]}`).set('Accept', 'text/html');
          assert.equal(browser.status, 302);
          assert.equal(browser.headers.location, LOGIN_REDIRECT.forbidden);
        }
        const anonymous = await request(app).get(`/permission/${routeName(permission)}`);
        assert.equal(anonymous.status, 401);
        assert.deepEqual(anonymous.body, { error: 'Authentication required' });
      });
    }
  });

  describe('requireSelfOr', () => {
    it('when the user named by the path asks, then they pass; a holder of the permission passes for anyone', async () => {
      const { user, token } = await createUserWithToken('viewer');
      const own = await request(app).get(`/users/${user.id}`).set('Authorization', `Bearer ${token}`);
      assert.equal(own.status, 200);
      const admin = await request(app).get(`/users/${user.id}`).set('Authorization', `Bearer ${tokens.admin}`);
      assert.equal(admin.status, 200);
    });

    it('when anyone else asks, then 403 whether or not the id exists; nobody signed in gets 401', async () => {
      const { user } = await createUserWithToken('viewer');
      for (const id of [user.id, crypto.randomUUID()]) {
        const res = await request(app).get(`/users/${id}`).set('Authorization', `Bearer ${tokens.editor}`);
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, { error: 'Forbidden' });
      }
      const anonymous = await request(app).get(`/users/${user.id}`);
      assert.equal(anonymous.status, 401);
    });
  });

  describe('optionalAuth', () => {
    it('when no credential is sent, then the request passes without a user', async () => {
      const res = await request(app).get('/optional');
      assert.equal(res.status, 200);
      assert.equal(res.body.userId, null);
    });

    it('when a valid token is sent, then the request passes with the user', async () => {
      const res = await request(app).get('/optional').set('Authorization', `Bearer ${tokens.author}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.role, 'author');
    });

    it('when an invalid token is sent, then the request passes without a user (never a 401)', async () => {
      const res = await request(app).get('/optional').set('Authorization', 'Bearer nonsense.token.value');
      assert.equal(res.status, 200);
      assert.equal(res.body.userId, null);
    });
  });
});

/** Issue 44, finding 3: a key acts with its own permissions only; the owner's self rights are not the key's. */
describe('requireSelfOr with an API key', () => {
  it('when a key holds no permission, then it reads /auth/me and its owner’s profile but writes nothing, not even that profile', async () => {
    const { app } = ctx();
    const { user, token } = await createUserWithToken('editor');
    const made = await request(app).post('/auth/api-keys').set('Authorization', `Bearer ${token}`).send({ name: 'read-only', permissions: [] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const key: string = made.body.key;

    assert.equal((await request(app).get('/auth/me').set('X-API-Key', key)).status, 200);
    assert.equal((await request(app).get(`/api/user-profiles/${user.id}`).set('X-API-Key', key)).status, 200);
    const write = await request(app).put(`/api/user-profiles/${user.id}`).set('X-API-Key', key).send({ customData: {} });
    assert.equal(write.status, 403);
    assert.deepEqual(write.body, { error: 'Forbidden' });
    const content = await request(app).post('/api/content').set('X-API-Key', key).send({ title: 'No', body: 'x' });
    assert.equal(content.status, 403);

    // The owner's own token still writes the profile: the self right is the person's, not the key's.
    assert.equal((await request(app).put(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${token}`).send({ customData: {} })).status, 200);
  });

  it('when a key holds manage:users, then it writes any profile, its owner’s included', async () => {
    const { app } = ctx();
    const { user, token } = await createUserWithToken('admin');
    const made = await request(app).post('/auth/api-keys').set('Authorization', `Bearer ${token}`).send({ name: 'users', permissions: ['manage:users'] });
    const { user: other } = await createUserWithToken('viewer');
    for (const id of [user.id, other.id]) {
      assert.equal((await request(app).put(`/api/user-profiles/${id}`).set('X-API-Key', made.body.key).send({ customData: {} })).status, 200, id);
    }
  });
});
