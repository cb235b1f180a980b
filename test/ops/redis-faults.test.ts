import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { startService, type ServiceProcess } from '../support/service-process';
import { call, randomIp, scratchDatabase, startControlledRedis, type ControlledRedis, type ScratchDatabase } from '../support/processes';
import { redisServerAvailable } from '../support/redis-server';
import { uniqueEmail } from '../support/context';

const PASSWORD = 'fault-password-123';
/** "About a second": the store's 1 s timeout (counted from the call) plus the rest of the request, on a busy machine. */
const MAX_WAIT_MS = 1500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function jtiOf(token: string): string {
  return (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { jti: string }).jti;
}

interface LoadReport {
  requests: number;
  failures: string[];
  slowest: number;
}

describe('Redis faults: a private redis-server killed and restarted, frozen and resumed, under load', function () {
  this.timeout(240_000);
  let redis: ControlledRedis | undefined;
  let db: ScratchDatabase | undefined;
  let service: ServiceProcess | undefined;
  let base = '';
  const email = uniqueEmail('faults');
  /** Signed in before any outage and never logged out: must keep working throughout. */
  let kept = '';
  /** Logged out before any outage: must stay refused throughout and after. */
  let loggedOut = '';
  let userId = '';

  before(async function () {
    if (!redisServerAvailable()) this.skip();
    redis = await startControlledRedis();
    db = await scratchDatabase('faults');
    service = await startService({ DATABASE_URL: db.url, REDIS_URL: redis.url, TRUST_PROXY: 'loopback' }, 60_000);
    base = service.baseUrl;
    const registered = await call(base, 'POST', '/auth/register', { body: { email, password: PASSWORD } });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    userId = (registered.body.user as { id: string }).id;
    kept = (await signIn()).token;
    loggedOut = (await signIn()).token;
    assert.equal((await call(base, 'POST', '/auth/logout', { token: loggedOut })).status, 200);
  });

  after(async () => {
    await service?.stop();
    await redis?.kill();
    await db?.drop();
  });

  async function signIn(ip = randomIp()): Promise<{ status: number; token: string }> {
    const res = await call(base, 'POST', '/auth/login', { body: { email, password: PASSWORD }, ip });
    return { status: res.status, token: res.body.token as string };
  }

  /** Keys of the service (prefix `auth:`) in the private Redis matching the pattern. */
  async function redisKeys(pattern: string): Promise<string[]> {
    const client = new Redis(redis!.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await client.connect();
      return await client.keys(`auth:${pattern}`);
    } finally {
      client.disconnect();
    }
  }

  /** Drives what needs no Redis (reads, sign-in, refresh, a profile write) from four clients for `ms`, while `fault` runs alongside. */
  async function underLoad(ms: number, fault: () => Promise<void> = async () => {}): Promise<LoadReport> {
    const report: LoadReport = { requests: 0, failures: [], slowest: 0 };
    const checks: Array<() => Promise<[string, number, number, number]>> = [
      async () => ['GET /auth/me (signed in)', 200, ...pick(await call(base, 'GET', '/auth/me', { token: kept }))],
      async () => ['GET /auth/me (logged out before)', 401, ...pick(await call(base, 'GET', '/auth/me', { token: loggedOut }))],
      async () => ['POST /auth/login', 200, ...pick(await call(base, 'POST', '/auth/login', { body: { email, password: PASSWORD } }))],
      async () => ['POST /auth/refresh', 200, ...pick(await call(base, 'POST', '/auth/refresh', { token: kept }))],
      async () => ['PUT /api/user-profiles/:id', 200, ...pick(await call(base, 'PUT', `/api/user-profiles/${userId}`, { token: kept, body: { profile: { bio: 'x' } } }))],
      async () => ['GET /health', 200, ...pick(await call(base, 'GET', '/health'))],
    ];
    const pick = (res: { status: number; ms: number }): [number, number] => [res.status, res.ms];
    const until = Date.now() + ms;
    const worker = async (offset: number) => {
      for (let i = offset; Date.now() < until; i++) {
        const [label, expected, status, took] = await checks[i % checks.length]();
        report.requests++;
        report.slowest = Math.max(report.slowest, took);
        if (status !== expected) report.failures.push(`${label}: ${status}, expected ${expected}`);
        if (took > MAX_WAIT_MS) report.failures.push(`${label}: took ${took} ms`);
      }
    };
    await Promise.all([worker(0), worker(1), worker(2), worker(3), fault()]);
    return report;
  }

  function assertClean(report: LoadReport, phase: string): void {
    assert.ok(report.requests > 20, `${phase}: only ${report.requests} requests`);
    assert.deepEqual(report.failures.slice(0, 10), [], `${phase}: ${report.failures.length} of ${report.requests} failed`);
  }

  async function waitForStore(): Promise<void> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ready = await call(base, 'GET', '/health/ready');
      if (ready.body.store === 'ok') return;
      assert.ok(Date.now() < deadline, `the store never came back: ${JSON.stringify(ready.body)}`);
      await sleep(200);
    }
  }

  /** Once Redis answers again: revocations hold, the cache and the shared rate limit work through Redis. */
  async function assertRecovered(revokedDuringOutage: string): Promise<void> {
    assert.equal((await call(base, 'GET', '/auth/me', { token: loggedOut })).status, 401, 'a logout before the outage holds');
    assert.equal((await call(base, 'GET', '/auth/me', { token: revokedDuringOutage })).status, 401, 'a logout during the outage holds');
    assert.equal((await call(base, 'POST', '/auth/refresh', { token: loggedOut })).status, 401, 'and cannot be refreshed');
    assert.equal((await call(base, 'GET', '/auth/me', { token: kept })).status, 200);
    const revoked = await redisKeys('revoked:*');
    assert.ok(revoked.includes(`auth:revoked:${jtiOf(loggedOut)}`), 'the revocation is back in Redis');
    assert.ok(revoked.includes(`auth:revoked:${jtiOf(revokedDuringOutage)}`), 'the outage revocation reached Redis');

    const fresh = (await signIn()).token;
    await call(base, 'GET', '/auth/me', { token: fresh });
    assert.equal((await call(base, 'GET', '/auth/me', { token: fresh })).status, 200);
    assert.ok((await redisKeys('vc:*')).length > 0, 'verification results are cached in Redis again');

    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn(ip)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429], 'the login limit counts again');
    assert.equal((await redisKeys(`rl:login:${ip}`)).length, 1, 'in Redis, where every instance shares it');
  }

  it('when Redis is healthy, then revocations, the cache and the rate limit live in it', async () => {
    assert.equal((await call(base, 'GET', '/auth/me', { token: loggedOut })).status, 401);
    assert.ok((await redisKeys('revoked:loaded')).length === 1, 'the revocation set is marked complete');
    assertClean(await underLoad(1500), 'healthy');
  });

  it('when Redis is killed and comes back empty, then nothing that needs no Redis fails, nothing waits, no revocation is forgotten', async () => {
    let revokedDuringOutage = '';
    const outage = await underLoad(4000, async () => {
      await sleep(500);
      await redis!.kill();
      await sleep(500);
      revokedDuringOutage = (await signIn()).token;
      const logout = await call(base, 'POST', '/auth/logout', { token: revokedDuringOutage });
      assert.equal(logout.status, 200, 'logout works without Redis');
      assert.ok(logout.ms < MAX_WAIT_MS);
      assert.equal((await call(base, 'GET', '/auth/me', { token: revokedDuringOutage })).status, 401);
      assert.equal((await call(base, 'GET', '/health/ready')).body.store, 'unavailable');
    });
    assertClean(outage, 'Redis killed');

    const back = await underLoad(3000, async () => {
      await redis!.restart();
      await waitForStore();
    });
    assertClean(back, 'Redis restarted');
    await assertRecovered(revokedDuringOutage);
  });

  it('when Redis freezes (SIGSTOP) and resumes, then the same holds, and no request waits on the frozen server', async () => {
    let revokedDuringOutage = '';
    const frozen = await underLoad(5000, async () => {
      await sleep(500);
      redis!.freeze();
      await sleep(500);
      revokedDuringOutage = (await signIn()).token;
      const logout = await call(base, 'POST', '/auth/logout', { token: revokedDuringOutage });
      assert.equal(logout.status, 200, 'logout works without Redis');
      assert.equal((await call(base, 'GET', '/auth/me', { token: revokedDuringOutage })).status, 401);
    });
    assertClean(frozen, 'Redis frozen');
    assert.ok(frozen.slowest <= MAX_WAIT_MS);

    const back = await underLoad(3000, async () => {
      redis!.resume();
      await waitForStore();
    });
    assertClean(back, 'Redis resumed');
    await assertRecovered(revokedDuringOutage);
  });
});
