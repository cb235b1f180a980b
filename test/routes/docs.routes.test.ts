import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';

/** Resolves a `$ref` (or returns the schema itself) within the document. */
function resolve(doc: { components?: { schemas?: Record<string, unknown> } }, schema: Record<string, unknown>): Record<string, unknown> {
  const ref = schema.$ref as string | undefined;
  if (!ref) return schema;
  return doc.components?.schemas?.[ref.replace('#/components/schemas/', '')] as Record<string, unknown>;
}

describe('admin API documentation', () => {
  const bodies: Array<[string, string, string[]]> = [
    ['post', '/api/users', ['email', 'password', 'username', 'firstName', 'lastName', 'role']],
    ['patch', '/api/users/{id}', ['role', 'active', 'username', 'firstName', 'lastName']],
    ['post', '/api/collections', ['name', 'description']],
    ['put', '/api/collections/{id}', ['name', 'description']],
    ['post', '/api/content', ['title', 'body', 'status', 'collectionId']],
    ['put', '/api/content/{id}', ['title', 'body', 'status', 'collectionId']],
    ['put', '/api/plugins/{name}', ['active', 'settings']],
    ['put', '/api/settings/security', ['jwtExpiresIn', 'jwtRefreshGraceSeconds', 'allowRegistration']],
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

  it('when the viewer is opened, then it renders', async () => {
    const res = await request(ctx().app).get('/api/docs/');
    assert.equal(res.status, 200);
    assert.match(res.text, /swagger/i);
  });
});
