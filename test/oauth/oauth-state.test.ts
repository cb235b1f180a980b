import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { ctx, uniqueEmail } from '../support/context';
import { setCookies } from '../support/auth';
import { OAuthProviderStandIn, authorizeAt, bindingCookie, bindingCookieOf, enableBoth, pathOf } from '../support/oauth-provider';
import { createApp } from '../../src/app';
import { bindingCookieName } from '../../src/oauth/oauth-state';

describe('OAuth state store', () => {
  let stand: OAuthProviderStandIn;
  before(async () => {
    stand = await new OAuthProviderStandIn().start();
  });
  after(async () => {
    await stand.stop();
  });
  beforeEach(() => enableBoth(stand));

  it('when a flow starts, then the shared store holds the PKCE verifier, the hashed browser binding and the redirect; the cookie, named after the state, lives 10 minutes on /auth/oauth', async () => {
    const res = await request(ctx().app).get('/auth/oauth/github?redirect=%2Fadmin%2Fusers');
    const query = new URL(res.headers.location).searchParams;
    const cookie = bindingCookieOf(res);
    assert.equal(cookie.name, bindingCookieName(query.get('state') as string, false));

    const record = JSON.parse((await ctx().store.get(`oauth:state:${query.get('state')}`)) as string);

    assert.equal(crypto.createHash('sha256').update(record.verifier).digest('base64url'), query.get('code_challenge'));
    assert.notEqual(record.binding, cookie.value);
    assert.equal(record.binding, crypto.createHash('sha256').update(cookie.value).digest('base64url'));
    assert.equal(record.redirect, '/admin/users');
    assert.equal(record.linkUserId, null);
    assert.equal(cookie.attributes['max-age'], '600');
    assert.equal(cookie.attributes.path, '/auth/oauth');
    assert.ok(Buffer.from(cookie.value, 'base64url').length >= 16);
  });

  it('when one browser starts two flows (two tabs), then both complete: each flow has a binding of its own, never reused', async () => {
    stand.as('github', { id: 90_001, login: 'tabs', emails: [{ email: uniqueEmail('tab'), primary: true, verified: true }] });
    const first = await request(ctx().app).get('/auth/oauth/github');
    const second = await request(ctx().app).get('/auth/oauth/github').set('Cookie', bindingCookie(first));
    assert.notEqual(bindingCookieOf(second).name, bindingCookieOf(first).name);
    assert.notEqual(bindingCookieOf(second).value, bindingCookieOf(first).value, 'a cookie the browser already has is not reused');
    const cookie = `${bindingCookie(first)}; ${bindingCookie(second)}`;
    const paths = [pathOf(await authorizeAt(first.headers.location)), pathOf(await authorizeAt(second.headers.location))];

    for (const path of paths) {
      const res = await request(ctx().app).get(path).set('Cookie', cookie);
      assert.equal(res.headers.location, '/admin');
    }
  });

  it("when an attacker plants their own flow's binding value in a victim's browser (a sibling subdomain can set cookies), then the victim's callback with the attacker's code signs nobody in", async () => {
    // Issue 26 finding 8: BASE_URL is https, so the binding is a `__Host-` cookie that no sibling can set.
    const app = createApp({ ...ctx(), config: { ...ctx().config, baseUrl: 'https://auth.example.test' } });
    stand.as('github', { id: 90_002, login: 'attacker', emails: [{ email: uniqueEmail('attacker'), primary: true, verified: true }] });
    const attackerStart = await request(app).get('/auth/oauth/github');
    const attackerCookie = bindingCookieOf(attackerStart);
    assert.ok(attackerCookie.name.startsWith('__Host-'), attackerCookie.name);
    assert.equal(attackerCookie.attributes.path, '/');
    assert.equal(attackerCookie.attributes.secure, true);
    const callbackPath = pathOf(await authorizeAt(attackerStart.headers.location));

    // What a sibling subdomain can plant: the value under any name without the __Host- prefix.
    const planted = [`oauth_binding=${attackerCookie.value}`, `${attackerCookie.name.replace('__Host-', '')}=${attackerCookie.value}`].join('; ');
    const victim = await request(app).get(callbackPath).set('Cookie', planted);

    assert.equal(victim.status, 302);
    assert.match(victim.headers.location, /^\/auth\/login\?/);
    assert.equal(setCookies(victim).auth_token, undefined, 'no session for the victim');
  });
  it('when the callback is checked, then its binding cookie is cleared: the browser keeps nothing of a spent flow', async () => {
    stand.as('github', { id: 90_003, login: 'spent', emails: [{ email: uniqueEmail('spent'), primary: true, verified: true }] });
    const start = await request(ctx().app).get('/auth/oauth/github');
    const callback = await request(ctx().app).get(pathOf(await authorizeAt(start.headers.location))).set('Cookie', bindingCookie(start));
    const cleared = setCookies(callback)[bindingCookieOf(start).name];
    assert.equal(cleared.value, '');
  });
});
