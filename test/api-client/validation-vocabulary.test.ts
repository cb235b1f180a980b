import assert from 'node:assert/strict';
import request from 'supertest';
import { nextClientIp, proxiedApp } from '../support/auth';
import { createUserWithToken } from '../support/users';

/** zod's own wording: none of it may reach a client. */
const LIBRARY_WORDING = /Invalid input|expected .* received|Too small|Too big|Unrecognized key/i;
const PATH_VALUES: Record<string, string> = { id: 'x', userId: 'x', name: 'otp-login', provider: 'github' };

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; anyOf?: Schema[] };
type Operation = { requestBody?: { content: Record<string, { schema: Schema }> }; parameters?: Array<{ in: string; name: string; schema: Schema }> };

function typesOf(schema: Schema): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  return schema.type === undefined ? [] : ([] as string[]).concat(schema.type);
}

/** A value of another type than the schema asks for. */
function wrongValueFor(schema: Schema): unknown {
  const types = typesOf(schema);
  if (types.includes('string')) return 12345678;
  if (types.includes('number') || types.includes('integer')) return 'abc';
  if (types.includes('boolean')) return 'yes';
  return 12345678;
}

describe('validation messages (every route of the OpenAPI document)', () => {
  it('when a field is missing or of the wrong type, then "is required" means absent, a wrong type is named, and no library text is answered', async function () {
    this.timeout(60_000);
    const app = proxiedApp();
    const { token } = await createUserWithToken('admin');
    const doc = (await request(app).get('/api/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
    let judged = 0;
    const send = async (method: string, route: string, body?: unknown, query?: Record<string, unknown>) => {
      const url = route.replace(/\{(\w+)\}/g, (_all, name: string) => PATH_VALUES[name] ?? 'x');
      let req = request(app)[method as 'post'](url).set('Authorization', `Bearer ${token}`).set('X-Forwarded-For', nextClientIp());
      if (query) req = req.query(query);
      const res = body === undefined ? await req : await req.send(body as object);
      assert.doesNotMatch(JSON.stringify(res.body), LIBRARY_WORDING, `${method.toUpperCase()} ${route} ${JSON.stringify(body ?? query)}`);
      return res.status === 400 && res.body.errors ? (res.body.errors as Record<string, string>) : undefined;
    };

    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${route}`;
        const schema = operation.requestBody?.content['application/json']?.schema;
        if (schema?.properties) {
          const missing = await send(method, route, {});
          for (const field of schema.required ?? []) {
            if (missing?.[field] === undefined) continue;
            judged += 1;
            assert.equal(missing[field], 'is required', `${where}: absent ${field}`);
          }
          for (const [field, property] of Object.entries(schema.properties)) {
            const errors = await send(method, route, { [field]: wrongValueFor(property) });
            if (errors?.[field] === undefined) continue;
            judged += 1;
            assert.notEqual(errors[field], 'is required', `${where}: ${field} of the wrong type is present`);
            assert.match(errors[field], /^(must|may|format)/, `${where}: ${field} says what it must be`);
          }
        }
        for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'query')) {
          const errors = await send(method, route, undefined, { [parameter.name]: typesOf(parameter.schema).includes('string') ? 'x'.repeat(300) : 'abc' });
          if (errors?.[parameter.name] !== undefined) judged += 1;
        }
      }
    }
    assert.ok(judged >= 40, `${judged} messages judged`);
  });

  it('when a password is a number, then it is named as the wrong type, not as missing (login and registration)', async () => {
    const app = proxiedApp();
    for (const route of ['/auth/login', '/auth/register']) {
      const res = await request(app).post(route).set('X-Forwarded-For', nextClientIp()).send({ password: 12345678 });
      assert.equal(res.status, 400);
      assert.equal(res.body.errors.password, 'must be a string', route);
      assert.equal(res.body.errors.email, 'is required', route);
    }
  });
});
