import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Express } from 'express';
import { Webhook } from 'standardwebhooks';
import { buildApp, ctx, uniqueEmail } from '../../support/context';
import { createUserWithToken } from '../../support/users';
import { makeUser, nextClientIp, PASSWORD } from '../../support/auth';
import { outboxOf } from '../../../src/app';
import { removeAllWebhooks } from '../../support/webhooks';
import { createOutbox } from '../../../src/services/operations/outbox';
import { createWebhookService } from '../../../src/services/operations/webhooks.service';
import { hashResetToken } from '../../../src/services/sign-in-methods/password-reset.service';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback: answers each request with the next of `answers` (the last one repeats; 'hang' never answers). */
async function receiver(answers: Array<number | 'hang'>) {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = answers[Math.min(received.length, answers.length - 1)];
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const wake of waiters.splice(0)) wake();
      if (answer !== 'hang') res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** Resolves once `count` requests arrived. */
    async until(count: number): Promise<void> {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls until `check` holds (the worker runs on its own schedule). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** No field of an event may be named like a credential (CONTRACT 16: never a password, hash, token, code, link or secret). */
const CREDENTIAL_FIELD = /password|hash|token|secret|code|link|key_?hash/i;

function fieldNames(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(fieldNames);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([name, inner]) => [name, ...fieldNames(inner)]);
  return [];
}

describe('webhooks (CONTRACT 16): signed, retried, durable', function () {
  this.timeout(60_000);
  let admin: { token: string; userId: string };
  const opened: Array<{ close(): Promise<void> }> = [];

  before(async () => {
    const made = await createUserWithToken('admin');
    admin = { token: made.token, userId: made.user.id };
    outboxOf(ctx().app).start();
  });
  after(async () => {
    await removeAllWebhooks(ctx().app);
    await outboxOf(ctx().app).stop();
    for (const server of opened) await server.close();
  });

  async function endpoint(url: string, events: string[] = ['user.created'], app: Express = ctx().app) {
    const res = await request(app).post('/api/webhooks').set('Authorization', `Bearer ${admin.token}`).send({ url, events, description: 'test receiver' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { webhook: { id: string; active: boolean }; secret: string };
  }

  async function createUser(): Promise<string> {
    const email = uniqueEmail('hooked');
    const res = await request(ctx().app).post('/api/users').set('Authorization', `Bearer ${admin.token}`).send({ email, password: 'a long enough password 1', role: 'viewer' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return email;
  }

  const deliveriesOf = async (id: string) =>
    (await request(ctx().app).get(`/api/webhooks/${id}/deliveries`).set('Authorization', `Bearer ${admin.token}`)).body as {
      deliveries: Array<{ id: string; event: string; status: string; attempts: number; responseStatus: number | null; error: string | null }>;
      total: number;
    };

  it('when an endpoint is added, then the secret is shown once as whsec_… and never again', async () => {
    const hook = await receiver([200]);
    opened.push(hook);
    const created = await endpoint(hook.url);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/=]{40,}$/);
    const listed = await request(ctx().app).get('/api/webhooks').set('Authorization', `Bearer ${admin.token}`);
    assert.equal(listed.status, 200);
    assert.ok(!JSON.stringify(listed.body).includes(created.secret.slice(6)));
    const stored = await ctx().models.WebhookEndpoint.findByPk(created.webhook.id, { rejectOnEmpty: true });
    assert.ok(!stored.secretSealed.includes(created.secret.slice(6)), 'kept sealed');
  });

  it('when the input is bad, then 400 names the field and nothing is written', async () => {
    const before = await ctx().models.WebhookEndpoint.count();
    const badEvent = await request(ctx().app).post('/api/webhooks').set('Authorization', `Bearer ${admin.token}`).send({ url: 'http://127.0.0.1:1/x', events: ['user.exploded'] });
    assert.equal(badEvent.status, 400);
    assert.match(JSON.stringify(badEvent.body), /events/);
    const badUrl = await request(ctx().app).post('/api/webhooks').set('Authorization', `Bearer ${admin.token}`).send({ url: 'ftp://example.com/x', events: ['*'] });
    assert.equal(badUrl.status, 400);
    const strict = buildApp({ env: { ALLOW_PRIVATE_OUTBOUND: undefined } });
    const privateUrl = await request(strict).post('/api/webhooks').set('Authorization', `Bearer ${admin.token}`).send({ url: 'http://127.0.0.1:9/x', events: ['*'] });
    assert.equal(privateUrl.status, 400);
    assert.match(privateUrl.body.errors.url, /loopback/);
    assert.equal(await ctx().models.WebhookEndpoint.count(), before);
  });

  it('when a user is created, then the receiver gets a user.created event it verifies with Webhook.verify, naming the user and nothing secret', async () => {
    const hook = await receiver([200]);
    opened.push(hook);
    const { webhook, secret } = await endpoint(hook.url);
    const email = await createUser();
    await hook.until(1);
    const [{ headers, body }] = hook.received;
    const event = new Webhook(secret).verify(body, headers as Record<string, string>) as { type: string; timestamp: string; data: { user: Record<string, unknown> } };
    assert.equal(event.type, 'user.created');
    assert.equal(event.data.user.email, email);
    assert.deepEqual(Object.keys(event.data.user).sort(), ['email', 'id', 'role', 'username']);
    assert.deepEqual(fieldNames(event).filter((name) => CREDENTIAL_FIELD.test(name)), []);
    const log = await eventually(() => deliveriesOf(webhook.id), (page) => page.deliveries[0]?.status === 'delivered');
    assert.equal(log.deliveries[0].responseStatus, 200);
    assert.equal(log.deliveries[0].attempts, 1);
    assert.equal(log.deliveries[0].id, headers['webhook-id']);
  });

  it('when the receiver answers 500 then 200, then the event is retried within 10 s with the same webhook-id and delivered', async () => {
    const hook = await receiver([500, 200]);
    opened.push(hook);
    const { webhook, secret } = await endpoint(hook.url);
    await createUser();
    await hook.until(1);
    const failed = await eventually(() => deliveriesOf(webhook.id), (page) => page.deliveries[0]?.attempts === 1);
    assert.equal(failed.deliveries[0].status, 'pending');
    assert.equal(failed.deliveries[0].responseStatus, 500);
    const firstAt = Date.now();
    await hook.until(2);
    assert.ok(Date.now() - firstAt < 10_500, 'the first retry comes within 10 s');
    assert.equal(hook.received[1].headers['webhook-id'], hook.received[0].headers['webhook-id']);
    new Webhook(secret).verify(hook.received[1].body, hook.received[1].headers as Record<string, string>);
    const done = await eventually(() => deliveriesOf(webhook.id), (page) => page.deliveries[0]?.status === 'delivered');
    assert.equal(done.deliveries[0].attempts, 2);
  });

  it('when the receiver answers 410, then the endpoint is disabled and the delivery failed', async () => {
    const hook = await receiver([410]);
    opened.push(hook);
    const { webhook } = await endpoint(hook.url);
    await createUser();
    const log = await eventually(() => deliveriesOf(webhook.id), (page) => page.deliveries[0]?.status === 'failed');
    assert.equal(log.deliveries[0].responseStatus, 410);
    const shown = await request(ctx().app).get(`/api/webhooks/${webhook.id}`).set('Authorization', `Bearer ${admin.token}`);
    assert.equal(shown.body.webhook.active, false);
    assert.match(shown.body.webhook.disabledReason, /410/);
    await createUser();
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(hook.received.length, 1, 'a disabled endpoint gets nothing more');
  });

  it('when the receiver hangs, then the attempt is cut at the configured timeout and stays pending for a retry', async () => {
    const main = outboxOf(ctx().app);
    await main.stop();
    const quick = buildApp({ env: { WEBHOOK_TIMEOUT_MS: '500' } });
    outboxOf(quick).start();
    try {
      const hook = await receiver(['hang']);
      opened.push(hook);
      const { webhook } = await endpoint(hook.url);
      await createUser();
      const log = await eventually(() => deliveriesOf(webhook.id), (page) => page.deliveries[0]?.attempts === 1);
      assert.equal(log.deliveries[0].status, 'pending');
      assert.equal(log.deliveries[0].responseStatus, null);
      assert.match(log.deliveries[0].error ?? '', /500 ms/);
      await request(ctx().app).delete(`/api/webhooks/${webhook.id}`).set('Authorization', `Bearer ${admin.token}`).expect(204);
    } finally {
      await outboxOf(quick).stop();
      main.start();
    }
  });

  it('when the secret is rotated, then deliveries carry two signatures and receivers holding either secret verify', async () => {
    const hook = await receiver([200]);
    opened.push(hook);
    const { webhook, secret: old } = await endpoint(hook.url, ['*']);
    const rotated = await request(ctx().app).post(`/api/webhooks/${webhook.id}/secret`).set('Authorization', `Bearer ${admin.token}`);
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.secret, old);
    assert.ok(rotated.body.webhook.previousSecretUntil);
    const test = await request(ctx().app).post(`/api/webhooks/${webhook.id}/test`).set('Authorization', `Bearer ${admin.token}`);
    assert.equal(test.status, 202);
    await hook.until(1);
    const { headers, body } = hook.received[0];
    assert.equal(String(headers['webhook-signature']).split(' ').length, 2);
    for (const secret of [old, rotated.body.secret as string]) {
      assert.equal((new Webhook(secret).verify(body, headers as Record<string, string>) as { type: string }).type, 'webhook.test');
    }
  });

  it('when a delivery is resent, then it is attempted again with its webhook-id', async () => {
    const hook = await receiver([200]);
    opened.push(hook);
    const { webhook } = await endpoint(hook.url, ['*']);
    const test = await request(ctx().app).post(`/api/webhooks/${webhook.id}/test`).set('Authorization', `Bearer ${admin.token}`);
    await hook.until(1);
    await eventually(() => deliveriesOf(webhook.id), (page) => page.deliveries[0]?.status === 'delivered');
    const retried = await request(ctx().app).post(`/api/webhooks/deliveries/${test.body.delivery.id}/retry`).set('Authorization', `Bearer ${admin.token}`);
    assert.equal(retried.status, 202);
    await hook.until(2);
    assert.equal(hook.received[1].headers['webhook-id'], test.body.delivery.id);
    const missing = await request(ctx().app).post('/api/webhooks/deliveries/msg_00000000000000000000000000000000/retry').set('Authorization', `Bearer ${admin.token}`);
    assert.equal(missing.status, 404);
  });

  it('when users sign in, fail, make and revoke API keys, are changed and deleted, then each event arrives signed and carries no credential', async () => {
    const hook = await receiver([200]);
    opened.push(hook);
    const { webhook, secret } = await endpoint(hook.url, ['*']);
    const user = await makeUser({ role: 'editor' });
    const ip = nextClientIp();
    const login = await request(ctx().app).post('/auth/login').set('X-Forwarded-For', ip).send({ email: user.email, password: PASSWORD });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const token = login.body.token as string;
    const wrong = await request(ctx().app).post('/auth/login').send({ email: user.email, password: 'not the password 1' });
    assert.equal(wrong.status, 401);
    const key = await request(ctx().app).post('/auth/api-keys').set('Authorization', `Bearer ${token}`).send({ name: 'job' });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    await request(ctx().app).delete(`/auth/api-keys/${key.body.apiKey.id}`).set('Authorization', `Bearer ${token}`).expect(204);
    await request(ctx().app).patch(`/api/users/${user.id}`).set('Authorization', `Bearer ${admin.token}`).send({ role: 'author' }).expect(200);
    await request(ctx().app).delete(`/api/users/${user.id}`).set('Authorization', `Bearer ${admin.token}`).expect(204);

    const expected = ['session.created', 'sign_in.failed', 'api_key.created', 'api_key.revoked', 'user.updated', 'user.deleted'];
    const page = await eventually(() => deliveriesOf(webhook.id), (list) => list.deliveries.filter((d) => d.status === 'delivered').length >= expected.length);
    const events = hook.received.map(({ headers, body }) => new Webhook(secret).verify(body, headers as Record<string, string>) as { type: string; data: Record<string, unknown> });
    const mine = events.filter((event) => JSON.stringify(event.data).includes(user.id));
    assert.deepEqual(mine.map((event) => event.type).sort(), [...expected].sort(), JSON.stringify(page));
    const stored = await ctx().models.User.findOne({ where: { id: admin.userId } });
    for (const { body } of hook.received) {
      assert.ok(!body.includes(PASSWORD) && !body.includes(token) && !body.includes(key.body.key) && !body.includes(secret.slice(6)));
      if (stored?.passwordHash) assert.ok(!body.includes(stored.passwordHash));
    }
    for (const event of mine) assert.deepEqual(fieldNames(event).filter((name) => CREDENTIAL_FIELD.test(name)), [], event.type);
    const created = mine.find((event) => event.type === 'session.created') as unknown as { data: { session: { method: string } } };
    assert.equal(created.data.session.method, 'password');
    const updated = mine.find((event) => event.type === 'user.updated') as unknown as { data: { actor: { id: string }; user: { role: string } } };
    assert.equal(updated.data.user.role, 'author');
    assert.equal(updated.data.actor.id, admin.userId);
    await request(ctx().app).delete(`/api/webhooks/${webhook.id}`).set('Authorization', `Bearer ${admin.token}`).expect(204);
  });

  it('when deliveries succeed, fail and wait, then /metrics counts attempts by outcome and shows the pending count', async () => {
    const main = outboxOf(ctx().app);
    await main.stop();
    const metricsApp = buildApp({ env: { METRICS_TOKEN: 'metrics-token-for-webhooks' } });
    const scrape = async () => (await request(metricsApp).get('/metrics').set('Authorization', 'Bearer metrics-token-for-webhooks')).text;
    try {
      const hook = await receiver([500]);
      opened.push(hook);
      const { webhook } = await endpoint(hook.url, ['*'], metricsApp);
      await request(metricsApp).post(`/api/webhooks/${webhook.id}/test`).set('Authorization', `Bearer ${admin.token}`).expect(202);
      assert.match(await scrape(), /outbox_pending\{kind="webhook"\} [1-9]/);
      outboxOf(metricsApp).start();
      await hook.until(1);
      const text = await eventually(scrape, (body) => /outbox_attempts_total\{kind="webhook",outcome="retry"\} 1/.test(body));
      assert.match(text, /outbox_attempts_total\{kind="webhook",outcome="retry"\} 1/);
      await request(metricsApp).delete(`/api/webhooks/${webhook.id}`).set('Authorization', `Bearer ${admin.token}`).expect(204);
    } finally {
      await outboxOf(metricsApp).stop();
      main.start();
    }
  });

  it('when a password is reset by link and an owner deletes the account, then user.password_changed and user.deleted arrive', async () => {
    const hook = await receiver([200]);
    opened.push(hook);
    await endpoint(hook.url, ['user.password_changed', 'user.deleted']);
    const { user } = await createUserWithToken('viewer');
    const resetToken = crypto.randomBytes(32).toString('base64url');
    await ctx().models.PasswordResetToken.create({ id: crypto.randomUUID(), userId: user.id, tokenHash: hashResetToken(resetToken), expiresAt: new Date(Date.now() + 3600_000) });
    const reset = await request(ctx().app).post('/auth/reset-password').set('X-Forwarded-For', nextClientIp()).send({ token: resetToken, password: 'a brand new passphrase 77' });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    await hook.until(1);
    const other = await createUserWithToken('viewer');
    const deleted = await request(ctx().app).delete('/auth/account').set('Authorization', `Bearer ${other.token}`);
    assert.equal(deleted.status, 204, JSON.stringify(deleted.body));
    await hook.until(2);
    const events = hook.received.map((r) => JSON.parse(r.body) as { type: string; data: { user: { id: string }; via?: string } });
    assert.deepEqual(events.map((e) => [e.type, e.data.user.id, e.data.via]), [
      ['user.password_changed', user.id, 'reset'],
      ['user.deleted', other.user.id, 'self'],
    ]);
  });

  it('when the change rolls back, then no event is recorded; when it commits, one is', async () => {
    const { config, sequelize, models, store, logger } = ctx();
    const hook = await receiver([200]);
    opened.push(hook);
    const { webhook } = await endpoint(hook.url, ['users.imported']);
    // A second service over the same database, its worker never started: only what is written counts.
    const outbox = createOutbox({ sequelize, models, logger });
    const events = createWebhookService({ config, sequelize, models, store, outbox, activity: { record: async () => undefined }, mailer: { send: async () => true }, logger });
    const count = () => models.OutboxEntry.count({ where: { eventType: 'users.imported', endpointId: webhook.id } });
    await assert.rejects(
      sequelize.transaction(async (transaction) => {
        await events.record('users.imported', { count: 1 }, { transaction });
        throw new Error('the import failed');
      }),
      /the import failed/,
    );
    assert.equal(await count(), 0);
    await sequelize.transaction((transaction) => events.record('users.imported', { count: 1 }, { transaction }));
    assert.equal(await count(), 1);
  });
});
