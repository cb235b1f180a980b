import assert from 'node:assert/strict';
import { call, randomIp } from '../support/processes';
import { twoServiceProcesses } from '../support/two-instances';
import { uniqueEmail } from '../support/context';

const PASSWORD = 'two-instances-123';

/**
 * Two service processes on one MariaDB/MySQL database and one Redis (a private redis-server): what one
 * does, the other enforces on the very next request. Runs where several instances apply: on the
 * MariaDB + Redis setup (DATABASE_URL names a MySQL server).
 */
describe('two instances, one system', function () {
  this.timeout(180_000);
  const services = twoServiceProcesses({ TRUST_PROXY: 'loopback' });
  let a = '';
  let b = '';
  let admin = '';

  before(() => {
    [a, b] = services.urls;
  });

  async function register(base: string, email = uniqueEmail('two')): Promise<{ email: string; token: string; id: string; role: string }> {
    const res = await call(base, 'POST', '/auth/register', { body: { email, password: PASSWORD } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const user = res.body.user as { id: string; role: string };
    return { email, token: res.body.token as string, id: user.id, role: user.role };
  }

  async function signIn(base: string, email: string): Promise<string> {
    const res = await call(base, 'POST', '/auth/login', { body: { email, password: PASSWORD } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.token as string;
  }

  const status = async (base: string, method: string, route: string, token?: string, body?: unknown) =>
    (await call(base, method, route, { token, body })).status;

  it('when twenty first registrations arrive at once, spread over both, then exactly one becomes admin', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => register(i % 2 === 0 ? a : b)));
    const admins = results.filter((user) => user.role === 'admin');
    assert.equal(admins.length, 1);
    assert.equal(results.filter((user) => user.role === 'viewer').length, 19);
    admin = admins[0].token;
  });

  it('when one client logs in on both, then the login limit counts across both', async () => {
    const { email } = await register(a);
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(i % 2 === 0 ? a : b, 'POST', '/auth/login', { body: { email, password: PASSWORD }, ip })).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  });

  it('when a token is logged out on one, then the other refuses it on the next request, even from its cache', async () => {
    const user = await register(a);
    const other = await signIn(a, user.email);
    assert.equal(await status(b, 'GET', '/auth/me', user.token), 200);
    assert.equal(await status(a, 'POST', '/auth/logout', user.token), 200);
    assert.equal(await status(b, 'GET', '/auth/me', user.token), 401);
    assert.equal(await status(b, 'POST', '/auth/refresh', user.token), 401);
    assert.equal(await status(b, 'GET', '/auth/me', other), 200, 'other tokens go on');
  });

  it('when logout-all is called on one, then every token of the user fails on the other', async () => {
    const user = await register(b);
    const second = await signIn(b, user.email);
    for (const token of [user.token, second]) assert.equal(await status(a, 'GET', '/auth/me', token), 200);
    assert.equal(await status(b, 'POST', '/auth/logout-all', user.token), 200);
    for (const token of [user.token, second]) assert.equal(await status(a, 'GET', '/auth/me', token), 401);
  });

  it('when an admin changes a role or deactivates on one, then the other enforces it on the next request', async () => {
    const promoted = await register(a);
    const deactivated = await register(a);
    for (const user of [promoted, deactivated]) assert.equal(await status(b, 'GET', '/auth/me', user.token), 200);

    assert.equal(await status(a, 'PATCH', `/api/users/${promoted.id}`, admin, { role: 'editor' }), 200);
    assert.equal(await status(b, 'GET', '/auth/me', promoted.token), 401, 'tokens issued under the old role end');
    const again = await call(b, 'GET', '/auth/me', { token: await signIn(b, promoted.email) });
    assert.equal((again.body.user as { role: string }).role, 'editor');

    assert.equal(await status(a, 'PATCH', `/api/users/${deactivated.id}`, admin, { active: false }), 200);
    assert.equal(await status(b, 'GET', '/auth/me', deactivated.token), 401);
    assert.equal((await call(b, 'POST', '/auth/login', { body: { email: deactivated.email, password: PASSWORD } })).status, 401);
  });

  it('when settings change on one, then the other applies them at once', async () => {
    assert.equal(await status(a, 'PUT', '/api/settings/security', admin, { jwtExpiresIn: '2h', allowRegistration: false }), 200);
    const refreshed = await call(b, 'POST', '/auth/refresh', { token: admin });
    assert.equal(refreshed.body.expiresIn, 7200);
    assert.equal((await call(b, 'POST', '/auth/register', { body: { email: uniqueEmail('closed'), password: PASSWORD } })).status, 403);

    assert.equal(await status(b, 'PUT', '/api/settings/security', admin, { jwtExpiresIn: '30d', allowRegistration: true }), 200);
    assert.equal((await call(a, 'POST', '/auth/refresh', { token: admin })).body.expiresIn, 30 * 86_400);
    await register(a);
  });

  it('when a plugin is switched on one, then the other serves or refuses its routes at once', async () => {
    const otp = () => call(b, 'POST', '/auth/otp/request', { body: { email: uniqueEmail('otp') } });
    assert.equal((await otp()).status, 404);
    assert.equal(await status(a, 'PUT', '/api/plugins/otp-login', admin, { active: true }), 200);
    assert.notEqual((await otp()).status, 404, 'the route is on (no mail service here, so it answers 503)');
    assert.equal(await status(a, 'PUT', '/api/plugins/otp-login', admin, { active: false }), 200);
    assert.equal((await otp()).status, 404);
  });
});
