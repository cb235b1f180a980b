import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';
import { createUserWithToken } from '../support/users';

/** Resolves a `$ref` (or returns the schema itself) within the document. */
function resolve(doc: { components?: { schemas?: Record<string, unknown> } }, schema: Record<string, unknown>): Record<string, unknown> {
  const ref = schema.$ref as string | undefined;
  if (!ref) return schema;
  return doc.components?.schemas?.[ref.replace('#/components/schemas/', '')] as Record<string, unknown>;
}

describe('admin API documentation', () => {
  const bodies: Array<[string, string, string[]]> = [
    ['post', '/api/users', ['email', 'password', 'username', 'firstName', 'lastName', 'role']],
    ['patch', '/api/users/{id}', ['role', 'active', 'username', 'firstName', 'lastName', 'emailVerified']],
    ['post', '/api/collections', ['name', 'description']],
    ['put', '/api/collections/{id}', ['name', 'description']],
    ['post', '/api/content', ['title', 'body', 'status', 'collectionId']],
    ['put', '/api/content/{id}', ['title', 'body', 'status', 'collectionId']],
    ['put', '/api/plugins/{name}', ['active', 'settings']],
    ['put', '/api/settings/security', ['jwtExpiresIn', 'jwtRefreshGraceSeconds', 'allowRegistration', 'sessionMaxAgeSeconds', 'requireTwoFactorRoles', 'requireVerifiedEmail']],
  ];
  const reads: Array<[string, string, string[]]> = [
    ['get', '/api/users', ['page', 'limit', 'q', 'role']],
    ['get', '/api/users/{id}', ['id']],
    ['delete', '/api/users/{id}', ['id']],
    ['get', '/api/collections', []],
    ['delete', '/api/collections/{id}', ['id']],
    ['get', '/api/content', ['page', 'limit', 'status']],
    ['get', '/api/content/{id}', ['id']],
    ['delete', '/api/content/{id}', ['id']],
    ['get', '/api/activity-logs', ['page', 'limit', 'action', 'userId']],
    ['get', '/api/plugins', []],
    ['get', '/api/settings/security', []],
  ];

  it('when the document is fetched, then every admin route is in it with the request schema it validates with', async () => {
    const res = await request(ctx().app).get('/api/openapi.json');
    assert.equal(res.status, 200);
    const doc = res.body;
    for (const [method, path, fields] of bodies) {
      const operation = doc.paths[path]?.[method];
      assert.ok(operation, `${method.toUpperCase()} ${path} is documented`);
      assert.ok(operation.security?.length > 0, `${path} says it needs a token`);
      const schema = resolve(doc, operation.requestBody.content['application/json'].schema);
      assert.deepEqual(Object.keys(schema.properties as object).sort(), [...fields].sort(), `${path} body fields`);
      assert.equal(schema.additionalProperties, false, `${path} rejects unknown fields`);
    }
    for (const [method, path, parameters] of reads) {
      const operation = doc.paths[path]?.[method];
      assert.ok(operation, `${method.toUpperCase()} ${path} is documented`);
      const names = (operation.parameters ?? []).map((p: { name: string }) => p.name);
      for (const name of parameters) assert.ok(names.includes(name), `${path} documents ${name}`);
    }
    const limit = doc.paths['/api/users'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    assert.equal(limit.schema.maximum, 100);
  });

  it('when the document is fetched, then every route lists the answers its kind can give: a NUL in the URL, validation, missing credential, CSRF, body limits, unexpected failure', async () => {
    const doc = (await request(ctx().app).get('/api/openapi.json')).body;
    const codes = (method: string, path: string) => Object.keys(doc.paths[path][method].responses);
    assert.deepEqual(codes('get', '/api/user-profiles/{userId}').sort(), ['200', '400', '401', '403', '404', 'default']);
    for (const code of ['400', '401', '403', '413', '415']) assert.ok(codes('put', '/api/user-profiles/{userId}').includes(code), `profile PUT ${code}`);
    assert.ok(codes('delete', '/api/users/{id}').includes('400'), 'a path parameter can be refused');
    assert.ok(codes('post', '/auth/logout-all').includes('403'), 'CSRF on a cookie-authenticated change');
    assert.ok(codes('post', '/auth/logout').includes('403'));
    assert.ok(!codes('post', '/auth/logout').includes('401'), 'logout never asks for a credential');
    assert.ok(!codes('get', '/auth/me').includes('403'), 'a read is never refused for CSRF');
    assert.deepEqual(codes('get', '/health').sort(), ['200', '400', 'default'], 'any URL with %00 is refused');
    assert.deepEqual(codes('get', '/health/ready').sort(), ['200', '400', '503', 'default']);
    const nul = await request(ctx().app).get('/health?x=%00');
    assert.equal(nul.status, 400);
    assert.deepEqual(Object.keys(nul.body), ['error']);
    assert.equal(doc.paths['/api/user-profiles/{userId}'].get.responses['401'].description, 'Authentication required');
  });

  it('when a path parameter is too long, then 400 names it in the house wording', async () => {
    const { token } = await createUserWithToken('admin');
    const res = await request(ctx().app).get(`/api/users/${'a'.repeat(65)}`).set('Authorization', `Bearer ${token}`);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation failed', errors: { id: 'must be at most 64 characters' } });
    const list = await request(ctx().app).get('/api/users').set('Authorization', `Bearer ${token}`);
    assert.equal(list.headers['cache-control'], 'no-store', 'API answers hold personal data: never stored');
  });

  it('when the viewer is opened, then it renders', async () => {
    const res = await request(ctx().app).get('/api/docs/');
    assert.equal(res.status, 200);
    assert.match(res.text, /swagger/i);
  });
});
