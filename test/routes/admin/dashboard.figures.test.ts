import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { ctx } from '../../support/context';
import { signedIn, type PageSession } from '../../support/admin-pages';
import { makeUser, nextClientIp, PASSWORD, proxiedApp } from '../../support/auth';
import { createTestUser } from '../../support/users';
import { createActivityService } from '../../../src/services/operations/activity.service';
import { createActivityRollup } from '../../../src/services/dashboard/activity-rollup';

/** The figures a dashboard page shows, read back from its HTML as a person (or a screen reader) reads them. */
interface Shown {
  day: Record<string, number>;
  month: Record<string, number>;
  methods: Record<string, { succeeded: number; failed: number }>;
  activeSessions: number;
  adoption: Record<string, { users: number; twoFactor: number; passkeys: number }>;
  events: Array<{ href: string; title: string; count: number }>;
}

const unescape = (html: string) => html.replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&#34;|&quot;/g, '"');
const text = (html: string) => unescape(html.replace(/<[^>]+>/g, '')).trim();

function totals(html: string, name: 'day' | 'month'): Record<string, number> {
  const card = html.split(`id="totals-${name}"`)[1].split('</dl>')[0];
  return Object.fromEntries([...card.matchAll(/<dt>([^<]+)<\/dt><dd>(.*?)<\/dd>/g)].map((m) => [m[1], Number(text(m[2]))]));
}

function rows(html: string, tableClass: string): string[][] {
  const table = html.split(`class="stack ${tableClass}"`)[1].split('</table>')[0];
  return [...table.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].slice(1).map((m) => [...m[1].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]));
}

async function dashboard(app: Express, session: PageSession): Promise<Shown & { html: string }> {
  const res = await request(app).get('/admin').set('Cookie', session.cookie);
  assert.equal(res.status, 200);
  const html = res.text;
  const methods = Object.fromEntries(rows(html, 'methods-day').filter((r) => r.length === 3).map((r) => [text(r[0]), { succeeded: Number(text(r[1])), failed: Number(text(r[2])) }]));
  const adoption = Object.fromEntries(rows(html, 'adoption').map((r) => [text(r[0]), { users: Number(text(r[1])), twoFactor: parseInt(text(r[2]), 10), passkeys: parseInt(text(r[3]), 10) }]));
  const events = html.includes('class="stack events"')
    ? rows(html, 'events').map((r) => ({ href: unescape(/href="([^"]+)"/.exec(r[1])?.[1] ?? ''), title: text(r[1]), count: Number(text(r[2])) }))
    : [];
  const activeSessions = Number(text(html.split('id="active-sessions"')[1].split('class="figure">')[1].split('</p>')[0]));
  return { html, day: totals(html, 'day'), month: totals(html, 'month'), methods, activeSessions, adoption, events };
}

const grew = (after: Record<string, number>, before: Record<string, number>) => Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));

describe('admin dashboard figures', () => {
  let app: Express;
  let admin: PageSession;
  const signIn = (email: string, password: string) => request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email, password });

  before(async () => {
    // Each simulated client its own address, so the per-address sign-in limit never cuts a burst short.
    app = proxiedApp();
    admin = await signedIn('admin');
  });

  it('when users sign in, fail, register and turn on second factors, then each figure grows by exactly that', async () => {
    const before = await dashboard(app, admin);
    const users = await Promise.all([makeUser({ role: 'editor' }), makeUser({ role: 'editor' })]);
    await Promise.all([signIn(users[0].email, PASSWORD), signIn(users[0].email, PASSWORD), signIn(users[1].email, PASSWORD)].map(async (r) => assert.equal((await r).status, 200)));
    await Promise.all([signIn(users[1].email, 'wrong password one'), signIn(users[1].email, 'wrong password two')].map(async (r) => assert.equal((await r).status, 401)));
    const { models } = ctx();
    await models.TwoFactor.create({ userId: users[0].id, secret: 'sealed', enabledAt: new Date() });
    // A pending enrolment is not adoption.
    await models.TwoFactor.create({ userId: users[1].id, pendingSecret: 'sealed' });
    for (const name of ['phone', 'laptop']) {
      await models.Passkey.create({
        id: crypto.randomUUID(), userId: users[1].id, name, credentialId: crypto.randomUUID(), credentialHash: crypto.randomBytes(32).toString('hex'),
        publicKey: 'key', counter: 0, transports: null, deviceType: 'singleDevice', backedUp: false, createdAt: new Date(),
      });
    }

    const after = await dashboard(app, admin);
    for (const window of ['day', 'month'] as const) {
      assert.deepEqual(grew(after[window], before[window]), { 'Sign-ins': 3, 'Failed sign-ins': 2, 'New users': 2, 'Token reuse detected': 0 }, window);
    }
    const password = (shown: Shown) => shown.methods.password ?? { succeeded: 0, failed: 0 };
    assert.deepEqual({ succeeded: password(after).succeeded - password(before).succeeded, failed: password(after).failed - password(before).failed }, { succeeded: 3, failed: 2 });
    assert.equal(after.activeSessions - before.activeSessions, 3, 'every sign-in is one session');
    assert.deepEqual(
      { users: after.adoption.editor.users - before.adoption.editor.users, twoFactor: after.adoption.editor.twoFactor - before.adoption.editor.twoFactor, passkeys: after.adoption.editor.passkeys - before.adoption.editor.passkeys },
      { users: 2, twoFactor: 1, passkeys: 1 },
      'a user with two passkeys counts once',
    );
  });

  it('when a refresh token is reused, then it is a security event linked to the log of that day', async () => {
    const before = await dashboard(app, admin);
    const victim = await createTestUser('viewer');
    // Written as the session service writes it on a detected reuse (its own tests drive the refresh itself).
    const { sequelize, models, logger } = ctx();
    const activity = createActivityService({ sequelize, models, logger, rollup: createActivityRollup({ sequelize }) });
    await activity.record({ action: 'session.reuse_detected', userId: victim.id, email: victim.email, details: { sessionId: 'x' } }, { ip: '10.9.9.9', userAgent: 'test' });
    const after = await dashboard(app, admin);
    assert.equal(after.day['Token reuse detected'] - before.day['Token reuse detected'], 1);
    const event = after.events.find((e) => e.title === 'Refresh token reuse detected');
    assert.ok(event, 'listed as a security event');
    const log = await request(app).get(event.href).set('Cookie', admin.cookie);
    assert.equal(log.status, 200);
    assert.ok(log.text.includes(victim.email), 'the linked log shows the row');
    assert.match(log.text, /session\.reuse_detected/);
  });

  it('when 30 wrong passwords arrive at once, then the failed figure grows by 30 and the hour shows as a spike and a throttled account, linked to those rows', async () => {
    const target = await makeUser();
    const before = await dashboard(app, admin);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(target.email, `wrong password ${i}`)));
    assert.ok(answers.every((r) => r.status === 401 || r.status === 429), 'every guess refused');

    const after = await dashboard(app, admin);
    assert.equal(after.day['Failed sign-ins'] - before.day['Failed sign-ins'], 30, 'each refusal counted, the throttled ones too');
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
    const spike = after.events.find((e) => e.title === 'Failed sign-in spike' && e.href.includes(encodeURIComponent(hour)));
    assert.ok(spike, `a spike for ${hour}: ${JSON.stringify(after.events)}`);
    assert.ok(spike.count >= 30);
    assert.ok(after.events.some((e) => e.title.startsWith('Sign-ins refused by the account throttle')), 'the throttled account is an event');

    const log = await request(app).get(spike.href).set('Cookie', admin.cookie);
    assert.equal(log.status, 200);
    const shown = [...log.text.matchAll(/<td data-label="Action">([^<]+)<\/td>/g)].map((m) => m[1]);
    assert.ok(shown.length > 0 && shown.every((action) => action === 'auth.login_failed'), 'the link shows failed sign-ins only');
    assert.ok(log.text.includes(target.email));
  });

  it('when the dashboard is drawn, then no statement reads the activity log', async () => {
    const { sequelize } = ctx();
    const statements: string[] = [];
    const query = sequelize.query.bind(sequelize);
    sequelize.query = ((sql: unknown, options?: unknown) => {
      statements.push(typeof sql === 'string' ? sql : String((sql as { query?: string }).query ?? sql));
      return query(sql as string, options as never);
    }) as typeof sequelize.query;
    try {
      await dashboard(app, admin);
    } finally {
      sequelize.query = query;
    }
    assert.ok(statements.some((sql) => sql.includes('activity_rollups')), 'the rollup is read');
    assert.deepEqual(statements.filter((sql) => sql.includes('activity_logs')), []);
  });
});
