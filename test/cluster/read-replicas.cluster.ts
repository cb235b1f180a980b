import assert from 'node:assert/strict';
import pino from 'pino';
import { QueryTypes, type Sequelize } from 'sequelize';
import { startService, type ServiceProcess } from '../support/service-process';
import { call, randomIp } from '../support/processes';
import { closedPort } from '../support/ports';
import { uniqueEmail } from '../support/context';
import { mariadbAvailable, startMariaDbReplication, type MariaDbReplication } from '../support/mariadb-replication';
import { createSequelize } from '../../src/db/sequelize';
import { databaseRequestScope, readsMayLag } from '../../src/db/read-replicas';

const PASSWORD = 'replica-password-123';
const DATABASE = 'auth_replicas';

describe('MySQL read replicas (DATABASE_READ_URLS): a test-owned primary and a GTID replica, lag injected', function () {
  this.timeout(240_000);
  let repl: MariaDbReplication | undefined;
  let service: ServiceProcess | undefined;
  let base = '';
  let adminToken = '';

  before(async function () {
    if (!mariadbAvailable()) this.skip();
    repl = await startMariaDbReplication();
    await repl.primary.query(`CREATE DATABASE ${DATABASE} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    // The store is a Redis nobody listens on: every token check, revocation and user read asks the database.
    service = await startService(
      {
        DATABASE_URL: repl.primary.url(DATABASE),
        DATABASE_READ_URLS: repl.replica.url(DATABASE),
        REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
        REDIS_CLUSTER_NODES: undefined,
        TRUST_PROXY: 'loopback',
      },
      90_000,
    );
    base = service.baseUrl;
    const adminEmail = uniqueEmail('replica-admin');
    assert.equal((await call(base, 'POST', '/auth/register', { body: { email: adminEmail, password: PASSWORD } })).status, 201);
    adminToken = (await signIn(adminEmail)).body.token as string;
    await repl.catchUp();
  });

  after(async () => {
    await service?.stop();
    await repl?.stop();
  });

  const signIn = (email: string) => call(base, 'POST', '/auth/login', { body: { email, password: PASSWORD }, ip: randomIp() });
  const register = async (label: string) => {
    const email = uniqueEmail(label);
    const res = await call(base, 'POST', '/auth/register', { body: { email, password: PASSWORD } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { email, id: (res.body.user as { id: string }).id };
  };
  const searchTotal = async (q: string) => {
    const res = await call(base, 'GET', `/api/users?q=${encodeURIComponent(q)}`, { token: adminToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.total as number;
  };

  it('when the replica lags, then sign-in, token checks, revocations and role changes are judged on the primary, while lists show the replica', async () => {
    const bob = await register('replica-bob');
    const bobToken = (await signIn(bob.email)).body.token as string;
    await repl!.catchUp();
    await repl!.pause();

    // A user the replica has never seen signs in, and their token works.
    const carol = await register('replica-carol');
    const carolSignIn = await signIn(carol.email);
    assert.equal(carolSignIn.status, 200, 'sign-in reads the primary');
    const carolToken = carolSignIn.body.token as string;
    assert.equal((await call(base, 'GET', '/auth/me', { token: carolToken })).status, 200, 'the token check reads the primary');

    // A logout is refused at once (the revocation is read from the primary).
    assert.equal((await call(base, 'POST', '/auth/logout', { token: carolToken })).status, 200);
    assert.equal((await call(base, 'GET', '/auth/me', { token: carolToken })).status, 401, 'revoked on the primary, refused');
    assert.equal((await call(base, 'POST', '/auth/refresh', { token: carolToken })).status, 401);

    // A role change ends Bob's tokens; the replica still has his old epoch and role.
    const changed = await call(base, 'PATCH', `/api/users/${bob.id}`, { token: adminToken, body: { role: 'editor' } });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await call(base, 'GET', '/auth/me', { token: bobToken })).status, 401, 'the old token is judged on the new epoch');
    const again = await signIn(bob.email);
    assert.equal(again.status, 200);
    const me = await call(base, 'GET', '/auth/me', { token: again.body.token as string });
    assert.equal((me.body.user as { role: string }).role, 'editor', 'the new role, not the replica’s');

    // Deactivation and a password change: the next sign-in is refused on the primary's word.
    assert.equal((await call(base, 'PATCH', `/api/users/${bob.id}`, { token: adminToken, body: { active: false } })).status, 200);
    assert.notEqual((await signIn(bob.email)).status, 200, 'a deactivated user cannot sign in');
    assert.equal((await call(base, 'GET', '/auth/me', { token: again.body.token as string })).status, 401);

    // The replica really is behind: the admin's search (a list) does not find Carol yet, the primary does.
    assert.equal(await searchTotal(carol.email), 0, 'the list is read from the lagging replica');
    const [{ count }] = (await repl!.primary.query(`SELECT COUNT(*) AS count FROM ${DATABASE}.users WHERE email = ?`, [carol.email])) as Array<{ count: number }>;
    assert.equal(Number(count), 1);
    const activity = await call(base, 'GET', `/api/activity-logs?userId=${carol.id}`, { token: adminToken });
    assert.equal(activity.status, 200);
    assert.equal(activity.body.total, 0, 'the activity log is read from the replica');

    await repl!.catchUp();
    assert.equal(await searchTotal(carol.email), 1, 'once caught up, the list shows her');
  });

  it('when a request has written, then its later reads go to the primary even where a lagging read is allowed', async () => {
    const sequelize: Sequelize = createSequelize(repl!.primary.url(DATABASE), pino({ level: 'silent' }), [repl!.replica.url(DATABASE)]);
    try {
      await repl!.pause();
      const name = `replica-${Date.now()}`;
      const count = () =>
        sequelize.query<{ n: number }>('SELECT COUNT(*) AS n FROM collections WHERE name = ?', { replacements: [name], type: QueryTypes.SELECT }).then((rows) => Number(rows[0].n));
      const seen = await new Promise<{ before: number; plain: number; lagging: number; afterWrite: number }>((resolve, reject) => {
        databaseRequestScope(() => {
          void (async () => {
            const before = await readsMayLag(count);
            await sequelize.query('INSERT INTO collections (id, name, created_at, updated_at) VALUES (UUID(), ?, NOW(), NOW())', { replacements: [name] });
            const plain = await count();
            const afterWrite = await readsMayLag(count);
            return { before, plain, lagging: -1, afterWrite };
          })().then(resolve, reject);
        });
      });
      const lagging = await readsMayLag(count);
      assert.deepEqual({ ...seen, lagging }, { before: 0, plain: 1, lagging: 0, afterWrite: 1 }, 'a read after the write sees it; another request allowed to lag does not');
    } finally {
      await repl!.catchUp();
      await sequelize.close();
    }
  });
});
