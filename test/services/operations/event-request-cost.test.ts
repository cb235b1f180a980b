import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { ctx, sqlSentDuring } from '../../support/context';
import { createUserWithToken } from '../../support/users';
import { makeUser, nextClientIp, PASSWORD } from '../../support/auth';
import { removeAllWebhooks } from '../../support/webhooks';

/**
 * What an event costs the request that fires it (issue 51): with an endpoint listening, one INSERT into the outbox
 * in the request's transaction (and the BEGIN and COMMIT of that transaction where the change alone needed none),
 * nothing else. Counted from Sequelize's query log, the worker not running.
 */

/** Reads of a process's copies (settings, subscriptions, SSO domains, revocations) and a session's throttled touch: not the request's own. */
const NOT_THE_REQUESTS = /^(SELECT|INSERT|DELETE|UPDATE) (settings|webhook_endpoints|sso_domains|revoked_tokens)$|^UPDATE sessions$/;
const TRANSACTION = /^(BEGIN|START|COMMIT|SET)\b/i;
const SETTLE_MS = 300;

/** A statement as its verb and table: `INSERT outbox`, `SELECT users`. */
function shape(sql: string): string {
  const verb = sql.trim().split(/\s+/)[0].toUpperCase();
  const table = /\b(?:FROM|INTO|UPDATE)\s+[`"]?(\w+)/i.exec(sql)?.[1] ?? '';
  return `${verb} ${table}`;
}

/** The request's own statements (transaction control left out), sorted. */
async function statementsOf(send: () => Promise<unknown>): Promise<string[]> {
  const sql = await sqlSentDuring(async () => {
    await send();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  });
  return sql.filter((one) => !TRANSACTION.test(one.trim())).map(shape).filter((one) => !NOT_THE_REQUESTS.test(one)).sort();
}

/** `with` less `without`, as multisets. */
function minus(more: string[], less: string[]): string[] {
  const rest = [...less];
  return more.filter((one) => {
    const at = rest.indexOf(one);
    if (at === -1) return true;
    rest.splice(at, 1);
    return false;
  });
}

describe('an event costs its request one INSERT (issue 51)', function () {
  this.timeout(60_000);
  let admin: { token: string };

  before(async () => {
    admin = await createUserWithToken('admin');
  });
  after(async () => {
    await removeAllWebhooks(ctx().app);
  });

  /** Each request made fresh: a new user (and address) where it needs one. */
  const requests: Record<string, () => Promise<() => Promise<unknown>>> = {
    'POST /auth/login (session.created)': async () => {
      const user = await makeUser();
      const ip = nextClientIp();
      return () => request(ctx().app).post('/auth/login').set('X-Forwarded-For', ip).send({ email: user.email, password: PASSWORD }).expect(200);
    },
    'PUT /api/user-profiles/:id (user.updated)': async () => {
      const { user, token } = await createUserWithToken('viewer');
      return () => request(ctx().app).put(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${token}`).send({ profile: { bio: crypto.randomBytes(4).toString('hex') } }).expect(200);
    },
    'POST /api/users (user.created)': async () => {
      const email = `event-cost-${crypto.randomBytes(4).toString('hex')}@example.test`;
      return () => request(ctx().app).post('/api/users').set('Authorization', `Bearer ${admin.token}`).send({ email, password: 'a long enough password 1', role: 'viewer' }).expect(201);
    },
  };

  it('when an endpoint listens, then login, a profile save and a user creation each cost one INSERT into the outbox more, and nothing else', async () => {
    const measured = async (): Promise<Record<string, string[]>> => {
      const costs: Record<string, string[]> = {};
      for (const [name, make] of Object.entries(requests)) {
        await (await make())(); // warm: caches filled, the admin's session touched
        costs[name] = await statementsOf(await make());
      }
      return costs;
    };
    const without = await measured();
    const made = await request(ctx().app).post('/api/webhooks').set('Authorization', `Bearer ${admin.token}`).send({ url: 'http://127.0.0.1:9/hook', events: ['*'] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const listening = await measured();
    for (const name of Object.keys(requests)) {
      assert.deepEqual({ name, more: minus(listening[name], without[name]), fewer: minus(without[name], listening[name]) }, { name, more: ['INSERT outbox'], fewer: [] });
    }
  });
});
