import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import createClient, { type Middleware } from 'openapi-fetch';
import OpenAPIResponseValidator from 'openapi-response-validator';
import type { paths } from './schema';
import { ctx, uniqueEmail } from '../support/context';
import { createUserWithToken } from '../support/users';
import { PASSWORD } from '../support/auth';

const SCHEMA_FILE = path.join(__dirname, 'schema.d.ts');
const HEADER = '// Generated from GET /api/openapi.json by openapi-typescript (test/api-client/client.test.ts).\n// Regenerate: UPDATE_API_CLIENT=1 npx mocha test/api-client/client.test.ts\n\n';

type Document = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: Record<string, unknown> };

async function servedDocument(): Promise<Document> {
  return (await request(ctx().app).get('/api/openapi.json')).body as Document;
}

/** The client types openapi-typescript writes for the document the app serves today. */
async function generatedTypes(doc: Document): Promise<string> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  return HEADER + astToString(await openapiTS(doc as never));
}

interface Answer {
  route: string;
  status: number;
}

/** Checks every answer the client receives against the document; records what it checked. */
function documentCheck(doc: Document, answers: Answer[], problems: string[]): Middleware {
  return {
    async onResponse({ request: sent, response, schemaPath }) {
      const method = sent.method.toLowerCase();
      const operation = doc.paths[schemaPath]?.[method];
      const where = `${sent.method} ${schemaPath} ${response.status}`;
      answers.push({ route: `${sent.method} ${schemaPath}`, status: response.status });
      if (!operation) return void problems.push(`${where}: not in the document`);
      const text = await response.clone().text();
      const body = text === '' ? undefined : (JSON.parse(text) as unknown);
      const validator = new OpenAPIResponseValidator({ responses: operation.responses as never, components: doc.components as never });
      const result = validator.validateResponse(response.status, body);
      if (result) problems.push(`${where}: ${JSON.stringify(result.errors)}`);
      return undefined;
    },
  };
}


/** The token of a sign-in answer (the document's 200 is the session or, with a second factor, the challenge: these users have none). */
function tokenOf(data: { token: string } | { twoFactorRequired: true } | undefined): string {
  assert.ok(data && 'token' in data, 'a session, not a two-factor challenge');
  return data.token;
}
describe('a client generated from the OpenAPI document', () => {
  let server: http.Server;
  let baseUrl: string;

  before(async () => {
    server = http.createServer(ctx().app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('when the types are generated from the served document, then they match the committed test/api-client/schema.d.ts (routes and document never drift)', async function () {
    this.timeout(30_000);
    const types = await generatedTypes(await servedDocument());
    if (process.env.UPDATE_API_CLIENT) fs.writeFileSync(SCHEMA_FILE, types);
    assert.equal(fs.readFileSync(SCHEMA_FILE, 'utf8'), types, 'regenerate with UPDATE_API_CLIENT=1 npx mocha test/api-client/client.test.ts');
  });

  it('when it drives the main flows against the started service, then every answer is one the document describes', async function () {
    this.timeout(30_000);
    const doc = await servedDocument();
    const answers: Answer[] = [];
    const problems: string[] = [];
    const client = createClient<paths>({ baseUrl });
    client.use(documentCheck(doc, answers, problems));

    // An admin exists already, so the registration below makes a viewer.
    const { token: adminToken } = await createUserWithToken('admin');
    const asAdmin = { headers: { Authorization: `Bearer ${adminToken}` } };

    // A visitor: health, the profile schema, registration (refused, then accepted), sign-in.
    assert.equal((await client.GET('/health')).response.status, 200);
    const schema = await client.GET('/api/user-profiles/schema');
    assert.ok(Array.isArray(schema.data?.fields));
    const refused = await client.POST('/auth/login', { body: { password: 12345678 } as never });
    assert.equal(refused.response.status, 400);
    assert.deepEqual(refused.error, { error: 'Validation failed', errors: { email: 'is required', password: 'must be a string' } });
    const email = uniqueEmail('client');
    const registered = await client.POST('/auth/register', { body: { email, password: PASSWORD } });
    assert.equal(registered.response.status, 201);
    const login = await client.POST('/auth/login', { body: { email, password: PASSWORD } });
    assert.equal(login.response.status, 200);
    const token = tokenOf(login.data);
    const asUser = { headers: { Authorization: `Bearer ${token}` } };

    // The signed-in user: me, refresh, their profile, sign-out.
    const me = await client.GET('/auth/me', asUser);
    assert.equal(me.data?.user.email, email);
    const refreshed = await client.POST('/auth/refresh', asUser);
    assert.equal(refreshed.response.status, 200);
    const refreshedAuth = { headers: { Authorization: `Bearer ${refreshed.data!.token}` } };
    // Sessions: a second sign-in is listed beside this one and ended by id; the admin sees and ends the user's sessions.
    const sessions = await client.GET('/auth/sessions', refreshedAuth);
    assert.equal(sessions.data?.sessions.filter((session) => session.current).length, 1);
    const second = await client.POST('/auth/login', { body: { email, password: PASSWORD } });
    const secondAuth = { headers: { Authorization: `Bearer ${tokenOf(second.data)}` } };
    const secondId = (await client.GET('/auth/sessions', secondAuth)).data!.sessions.find((session) => session.current)!.id;
    assert.equal((await client.DELETE('/auth/sessions/{id}', { params: { path: { id: secondId } }, ...refreshedAuth })).response.status, 204);
    assert.equal((await client.GET('/auth/me', secondAuth)).response.status, 401, 'an ended session signs nothing in');
    const third = await client.POST('/auth/login', { body: { email, password: PASSWORD } });
    // The registration's own session and the third sign-in end; this one stays.
    assert.equal((await client.POST('/auth/sessions/revoke-others', refreshedAuth)).data?.revoked, 2);
    const theirs = { params: { path: { id: me.data!.user.id } }, ...asAdmin };
    assert.equal((await client.GET('/api/users/{id}/sessions', theirs)).data?.sessions.length, 1);
    assert.equal((await client.GET('/auth/me', { headers: { Authorization: `Bearer ${tokenOf(third.data)}` } })).response.status, 401);
    const profile = await client.GET('/api/user-profiles/{userId}', { params: { path: { userId: me.data!.user.id } }, ...refreshedAuth });
    assert.equal(profile.data?.userId, me.data!.user.id);
    assert.equal((await client.GET('/api/users', refreshedAuth)).response.status, 403, 'a viewer manages no users');
    assert.equal((await client.POST('/auth/logout', refreshedAuth)).data?.success, true);
    assert.equal((await client.GET('/auth/me', refreshedAuth)).response.status, 401, 'the token stopped working');

    // The admin: user CRUD, security settings, plugins.
    const list = await client.GET('/api/users', { params: { query: { limit: 5, q: 'client' } }, ...asAdmin });
    assert.ok((list.data?.total ?? 0) >= 1);
    const created = await client.POST('/api/users', { body: { email: uniqueEmail('created'), role: 'author' }, ...asAdmin });
    assert.equal(created.response.status, 201);
    const id = created.data!.user.id;
    const byId = { params: { path: { id } }, ...asAdmin };
    assert.equal((await client.GET('/api/users/{id}', byId)).data?.user.role, 'author');
    assert.equal((await client.PATCH('/api/users/{id}', { ...byId, body: { role: 'editor', firstName: 'Ed' } })).data?.user.role, 'editor');
    assert.equal((await client.POST('/api/users', { body: { email: created.data!.user.email }, ...asAdmin })).response.status, 409);
    assert.equal((await client.DELETE('/api/users/{id}', byId)).response.status, 204);
    assert.equal((await client.GET('/api/users/{id}', byId)).response.status, 404);
    const settings = await client.GET('/api/settings/security', asAdmin);
    assert.ok(settings.data?.jwtExpiresIn.seconds);
    const stored = await client.PUT('/api/settings/security', { body: { allowRegistration: true }, ...asAdmin });
    assert.equal(stored.data?.allowRegistration.value, true);
    const plugins = await client.GET('/api/plugins', asAdmin);
    assert.ok(plugins.data?.plugins.some((plugin) => plugin.name === 'otp-login'));
    const switched = await client.PUT('/api/plugins/{name}', { params: { path: { name: 'otp-login' } }, body: { active: false }, ...asAdmin });
    assert.equal(switched.data?.plugin.active, false);

    assert.deepEqual(problems, []);
    assert.ok(answers.length >= 20, `${answers.length} answers checked`);
    const me401 = new OpenAPIResponseValidator({ responses: doc.paths['/auth/me'].get.responses as never, components: doc.components as never });
    assert.ok(me401.validateResponse(200, { user: { id: 1 } }), 'the check refuses an answer the document does not describe');
    assert.ok(me401.validateResponse(401, { message: 'no' }), 'an error body without `error` is refused');
  });
});
