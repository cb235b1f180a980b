import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { ctx, buildApp } from '../support/context';
import { PASSWORD, makeUser, nextClientIp } from '../support/auth';
import { createUserWithToken } from '../support/users';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { loadConfig } from '../../src/config/config';

const TOKEN = crypto.randomBytes(24).toString('hex');

/** One sample's value from a Prometheus text scrape (0 when the series is absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',');
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return 0;
}

async function scrape(app: Express): Promise<string> {
  const res = await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
  assert.equal(res.status, 200);
  assert.match(res.headers['content-type'], /^text\/plain/);
  return res.text;
}

/** Scrapes until `check` holds (work a request started in the background lands a moment after its answer). */
async function scrapeUntil(app: Express, check: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const text = await scrape(app);
    if (check(text) || Date.now() > deadline) return text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('GET /metrics (CONTRACT 13)', () => {
  let sink: SmtpSink;
  let app: Express;

  before(async () => {
    sink = await startSmtpSink();
  });

  after(async () => {
    await sink.stop();
  });

  beforeEach(() => {
    // Trusts X-Forwarded-For: the 429 below is this test's own client, whatever other tests did.
    app = buildApp({ env: { METRICS_TOKEN: TOKEN, SMTP_URL: sink.url, TRUST_PROXY: 'true' } });
  });

  it('when METRICS_TOKEN is not set, then /metrics is an unknown route (404)', async () => {
    assert.equal((await request(ctx().app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).status, 404);
  });

  it('when the bearer token is missing or wrong, then 401 and no metrics', async () => {
    const missing = await request(app).get('/metrics');
    assert.equal(missing.status, 401);
    assert.equal(missing.headers['www-authenticate'], 'Bearer');
    assert.doesNotMatch(missing.text, /http_requests_total/);
    const wrong = await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN.slice(0, -1)}x`);
    assert.equal(wrong.status, 401);
    assert.equal((await request(app).get('/metrics').set('Authorization', TOKEN)).status, 401, 'the token without the Bearer scheme');
  });

  it('when METRICS_TOKEN is shorter than 16 characters, then the configuration is refused', () => {
    assert.throws(() => loadConfig({ ...ctx().env, METRICS_TOKEN: 'short-token' }), /METRICS_TOKEN must be at least 16 characters/);
  });

  it('when there was traffic (sign-ins, a refused one, a 429, a mail, a logout, a lookup by id), then the series moved', async () => {
    const user = await makeUser();
    const { token: adminToken } = await createUserWithToken('admin');
    const before = await scrape(app);
    const ip = nextClientIp();

    const login = await request(app).post('/auth/login').set('X-Forwarded-For', ip).send({ email: user.email, password: PASSWORD });
    assert.equal(login.status, 200);
    assert.equal((await request(app).post('/auth/login').set('X-Forwarded-For', ip).send({ email: user.email, password: 'not the password' })).status, 401);
    // The login limiter allows 5 per minute and client: the 6th is refused.
    for (let i = 0; i < 3; i++) await request(app).post('/auth/login').set('X-Forwarded-For', ip).send({ email: user.email, password: 'not the password' });
    assert.equal((await request(app).post('/auth/login').set('X-Forwarded-For', ip).send({ email: user.email, password: PASSWORD })).status, 429);
    assert.equal((await request(app).post('/auth/logout').set('Authorization', `Bearer ${login.body.token}`)).status, 200);
    assert.equal((await request(app).post('/auth/request-password-reset').set('X-Forwarded-For', nextClientIp()).send({ email: user.email })).status, 200);
    await sink.waitFor((message) => message.envelope.to.includes(user.email));
    assert.equal((await request(app).get(`/api/users/${user.id}`).set('Authorization', `Bearer ${adminToken}`)).status, 200);
    assert.equal((await request(app).get(`/api/users/${crypto.randomUUID()}`).set('Authorization', `Bearer ${adminToken}`)).status, 404);
    assert.equal((await request(app).get('/no/such/route')).status, 404);

    const after = await scrapeUntil(app, (text) => sample(text, 'mail_messages_total', { outcome: 'sent' }) > sample(before, 'mail_messages_total', { outcome: 'sent' }));
    const moved = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);

    assert.equal(moved('auth_sign_ins_total', { method: 'password', outcome: 'success' }), 1);
    assert.equal(moved('auth_sign_ins_total', { method: 'password', outcome: 'failure' }), 4);
    assert.equal(moved('rate_limit_refusals_total', { limiter: 'login' }), 1);
    assert.equal(moved('mail_messages_total', { outcome: 'sent' }), 1);
    assert.equal(moved('sessions_created_total'), 1);
    assert.equal(moved('sessions_revoked_total'), 1);
    assert.equal(moved('http_requests_total', { method: 'POST', route: '/auth/login', status: '200' }), 1);
    assert.equal(moved('http_requests_total', { method: 'POST', route: '/auth/login', status: '401' }), 4);
    assert.equal(moved('http_requests_total', { method: 'POST', route: '/auth/login', status: '429' }), 1);
    assert.equal(moved('http_request_duration_seconds_count', { method: 'POST', route: '/auth/login', status: '200' }), 1);

    // The route label is the pattern, never the URL: both lookups by id share one series.
    assert.equal(moved('http_requests_total', { method: 'GET', route: '/api/users/:id', status: '200' }), 1);
    assert.equal(moved('http_requests_total', { method: 'GET', route: '/api/users/:id', status: '404' }), 1);
    assert.equal(moved('http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }), 1);
    assert.ok(!after.includes(user.id), 'no id reaches a label');
    assert.ok(!after.includes('/no/such/route'), 'no unknown URL reaches a label');

    // Process metrics (prom-client's defaults).
    assert.ok(sample(after, 'process_cpu_user_seconds_total') > 0);
    assert.match(after, /^nodejs_eventloop_lag_seconds /m);
  });

  it('when two apps run in one process, then each has its own registry (no collision, no shared counts)', async () => {
    const other = buildApp({ env: { METRICS_TOKEN: TOKEN } });
    await request(other).get('/health');
    const text = await scrape(other);
    assert.equal(sample(text, 'http_requests_total', { method: 'GET', route: '/health', status: '200' }), 1);
    assert.equal(sample(await scrape(app), 'http_requests_total', { method: 'GET', route: '/health', status: '200' }), 0);
  });
});
