import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { appWith } from '../support/auth';

const ROOT = path.resolve(__dirname, '..', '..');
const REDOCLY = path.join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const PUBLIC_ORIGIN = 'https://auth.acme.test';

/** The environment the linter runs in: no telemetry, no update check, every socket refused (no-network.cjs). */
const OFFLINE_ENV = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
  NO_COLOR: '1',
  NODE_OPTIONS: `--require ${path.join(__dirname, 'no-network.cjs')}`,
};

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
}

type Operation = { operationId?: string; security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }> };

/** The document as a deployment at PUBLIC_ORIGIN serves it. */
async function servedDocument(): Promise<{ paths: Record<string, Record<string, Operation>>; servers: Array<{ url: string }>; components: { schemas: Record<string, unknown> } }> {
  const res = await request(appWith({ env: { BASE_URL: PUBLIC_ORIGIN } })).get('/api/openapi.json');
  assert.equal(res.status, 200);
  return res.body;
}

/** Every string under a key named `pattern` in the document. */
function patternsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => patternsIn(item, found));
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') found.push(value);
      else patternsIn(value, found);
    }
  }
  return found;
}

describe('OpenAPI document', () => {
  it('when redocly lints it with the recommended rules (offline), then there is no error and no warning', async function () {
    this.timeout(60_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
    try {
      const file = path.join(dir, 'openapi.json');
      fs.writeFileSync(file, JSON.stringify(await servedDocument(), null, 2));
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        [REDOCLY, 'lint', '--extends', 'recommended', '--format', 'json', file],
        { cwd: dir, env: OFFLINE_ENV, maxBuffer: 16 * 1024 * 1024 },
      ).catch((error: { stdout: string; stderr: string }) => error);
      assert.doesNotMatch(stderr, /NETWORK ATTEMPT/, 'the linter never reaches the network');
      const report = JSON.parse(stdout) as LintReport;
      const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
      assert.deepEqual(problems, []);
      assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when it is served, then its server is BASE_URL, every operation has an id and says who may call it, every error names its body', async () => {
    const doc = await servedDocument();
    assert.deepEqual(doc.servers, [{ url: PUBLIC_ORIGIN }]);
    assert.deepEqual(Object.keys(doc.components.schemas).sort(), ['Error', 'ValidationError']);
    const ids = new Set<string>();
    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${route}`;
        assert.ok(operation.operationId && !ids.has(operation.operationId), `${where} has a unique operationId`);
        ids.add(operation.operationId);
        assert.ok(Array.isArray(operation.security), `${where} says whether it needs a credential`);
        for (const [status, response] of Object.entries(operation.responses)) {
          if (status === '204' || status.startsWith('3')) continue;
          // JSON, or another media type where the answer is one (the user export's NDJSON stream).
          assert.ok(Object.values(response.content ?? {})[0]?.schema, `${where} ${status} has a body schema`);
        }
      }
    }
    const schemaOf = (route: string, method: string, status: string) => doc.paths[route][method].responses[status].content?.['application/json'].schema;
    assert.deepEqual(schemaOf('/auth/me', 'get', '401'), { $ref: '#/components/schemas/Error' });
    assert.deepEqual(schemaOf('/api/users', 'post', '400'), { anyOf: [{ $ref: '#/components/schemas/ValidationError' }, { $ref: '#/components/schemas/Error' }] });
    assert.deepEqual(schemaOf('/api/users/{id}', 'delete', 'default'), { $ref: '#/components/schemas/Error' });
    assert.deepEqual(doc.paths['/auth/login'].post.security, [], 'a public operation says so');
    assert.deepEqual(doc.paths['/health'].get.security, []);
    assert.equal(doc.paths['/api/users'].get.operationId, 'getApiUsers');
    assert.ok(doc.paths['/api/user-profiles/schema'].get.responses['200'].content, 'the profile schema answer is described');
  });

  it('when a client compiles its patterns as Unicode regexes, then the username pattern accepts what the server accepts', async () => {
    const doc = await servedDocument();
    const patterns = patternsIn(doc);
    for (const pattern of patterns) assert.doesNotThrow(() => new RegExp(pattern, 'u'), pattern);
    const username = doc.paths['/api/users'].post as unknown as { requestBody: { content: Record<string, { schema: { properties: { username: { pattern: string } } } }> } };
    const rule = new RegExp(username.requestBody.content['application/json'].schema.properties.username.pattern, 'u');
    for (const valid of ['alice', 'Zoë.d-s_1', '山田']) assert.ok(rule.test(valid), `${valid} passes`);
    for (const invalid of ['al ice', 'bob!', 'a/b']) assert.ok(!rule.test(invalid), `${invalid} is refused`);
  });
});
