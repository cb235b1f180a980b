import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp } from '../support/context';
import { makeUser, PASSWORD } from '../support/auth';
import { ACCOUNT_THROTTLE } from '../../src/credentials/account-throttle';
import { DEVICE_COOKIE } from '../../src/sign-in/device-cookies';

/** A sign-in from its own client address (TRUST_PROXY on), with the device cookie a browser kept, if any. */
function login(app: Express, email: string, password: string, device?: string) {
  const ip = `198.51.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
  const req = request(app).post('/auth/login').set('X-Forwarded-For', ip).set('Accept', 'application/json');
  if (device) req.set('Cookie', `${DEVICE_COOKIE}=${device}`);
  return req.send({ email, password });
}

/** The device cookie a sign-in answer set, with its attributes. */
function deviceCookieOf(res: request.Response): { value: string; attributes: string } | null {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
  if (!header) return null;
  const [pair, ...attributes] = header.split(';');
  return { value: pair.slice(DEVICE_COOKIE.length + 1), attributes: attributes.join(';') };
}

async function failTimes(app: Express, email: string, times: number, device?: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await login(app, email, `wrong-${i}-guess`, device)).status);
  return statuses;
}

/** Issue 51: OWASP device cookies, so a credential-stuffing list naming an account never locks out its owner's browser. */
describe('device cookies: a known browser keeps its own failure budget', () => {
  let app: Express;
  before(() => {
    app = buildApp({ env: { TRUST_PROXY: 'true' } });
  });

  it('when a password is right, then the browser gets an HttpOnly device cookie for the sign-in routes only', async () => {
    const user = await makeUser();
    const res = await login(app, user.email, PASSWORD);
    assert.equal(res.status, 200);
    const cookie = deviceCookieOf(res);
    assert.ok(cookie, 'a device cookie is set');
    assert.match(cookie.attributes, /HttpOnly/i);
    assert.match(cookie.attributes, /Path=\/auth/);
    assert.match(cookie.attributes, /SameSite=Strict/i);
    assert.equal(deviceCookieOf(await login(app, user.email, 'wrong-password-1')), null, 'a wrong password gets none');
  });

  it('when strangers have locked an account, then its owner signs in from a known browser while unknown browsers get 429', async () => {
    const user = await makeUser();
    const device = deviceCookieOf(await login(app, user.email, PASSWORD))?.value as string;
    assert.deepEqual(await failTimes(app, user.email, ACCOUNT_THROTTLE.maxFailures), Array(ACCOUNT_THROTTLE.maxFailures).fill(401));
    assert.equal((await login(app, user.email, PASSWORD)).status, 429, 'an unknown browser is refused');
    const known = await login(app, user.email, PASSWORD, device);
    assert.equal(known.status, 200, 'the known browser signs in');
    assert.ok(deviceCookieOf(known), 'and gets a fresh device cookie');
    assert.equal((await login(app, user.email, PASSWORD)).status, 429, "the owner's sign-in does not lift the block for strangers");
  });

  it("when a browser presents another account's device cookie, or a forged one, then it is an unknown browser", async () => {
    const [owner, victim] = [await makeUser(), await makeUser()];
    const ownersDevice = deviceCookieOf(await login(app, owner.email, PASSWORD))?.value as string;
    await failTimes(app, victim.email, ACCOUNT_THROTTLE.maxFailures);
    assert.equal((await login(app, victim.email, PASSWORD, ownersDevice)).status, 429);
    const [nonce] = ownersDevice.split('.');
    assert.equal((await login(app, victim.email, PASSWORD, `${nonce}.${'A'.repeat(43)}`)).status, 429);
  });

  it('when a known browser itself guesses wrong 10 times, then it is treated as an unknown browser (the account budget)', async () => {
    const user = await makeUser();
    const device = deviceCookieOf(await login(app, user.email, PASSWORD))?.value as string;
    assert.deepEqual(await failTimes(app, user.email, ACCOUNT_THROTTLE.maxFailures, device), Array(ACCOUNT_THROTTLE.maxFailures).fill(401));
    // Its own budget is spent: it now draws on the account's (still untouched), like any browser.
    assert.equal((await login(app, user.email, PASSWORD, device)).status, 200);
    await failTimes(app, user.email, ACCOUNT_THROTTLE.maxFailures, device);
    assert.equal((await login(app, user.email, PASSWORD, device)).status, 429, 'both budgets spent');
  });
});
