import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';

describe('OAuth API documentation', () => {
  it('when the OpenAPI document is fetched, then every /auth/oauth route is in it, link and unlink with their { provider } body', async () => {
    const doc = (await request(ctx().app).get('/api/openapi.json')).body;

    for (const [method, path] of [
      ['get', '/auth/oauth/accounts'],
      ['get', '/auth/oauth/{provider}'],
      ['get', '/auth/oauth/{provider}/callback'],
      ['post', '/auth/oauth/link'],
      ['post', '/auth/oauth/unlink'],
    ]) {
      assert.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path} is documented`);
    }
    for (const path of ['/auth/oauth/link', '/auth/oauth/unlink']) {
      const operation = doc.paths[path].post;
      assert.ok(operation.security?.length > 0, `${path} needs a signed-in user`);
      const schema = operation.requestBody.content['application/json'].schema;
      assert.deepEqual(Object.keys(schema.properties), ['provider']);
      assert.ok(operation.requestBody.content['application/x-www-form-urlencoded'], `${path} accepts the profile page's form post`);
    }
    assert.ok(doc.paths['/auth/oauth/{provider}'].get.responses['302']);
    assert.ok(doc.paths['/auth/oauth/accounts'].get.responses['200'].content['application/json'].schema);
  });
});
