import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { ctx, uniqueEmail } from '../support/context';
import { setCookies } from '../support/auth';
import { OAuthProviderStandIn, authorizeAt, bindingCookie, enableBoth, pathOf } from '../support/oauth-provider';

describe('OAuth state store', () => {
  let stand: OAuthProviderStandIn;
  before(async () => {
    stand = await new OAuthProviderStandIn().start();
  });
  after(async () => {
    await stand.stop();
  });
  beforeEach(() => enableBoth(stand));

  it('when a flow starts, then the shared store holds the PKCE verifier, the hashed browser binding and the redirect; the cookie lives 10 minutes on /auth/oauth', async () => {
    const res = await request(ctx().app).get('/auth/oauth/github?redirect=%2Fadmin%2Fusers');
    const query = new URL(res.headers.location).searchParams;
    const cookie = setCookies(res).oauth_binding;

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

  it('when one browser starts two flows (two tabs), then both complete: the binding is per browser, the state per flow', async () => {
    stand.as('github', { id: 90_001, login: 'tabs', emails: [{ email: uniqueEmail('tab'), primary: true, verified: true }] });
    const first = await request(ctx().app).get('/auth/oauth/github');
    const cookie = bindingCookie(first);
    const second = await request(ctx().app).get('/auth/oauth/github').set('Cookie', cookie);
    assert.equal(bindingCookie(second), cookie);
    const paths = [pathOf(await authorizeAt(first.headers.location)), pathOf(await authorizeAt(second.headers.location))];

    for (const path of paths) {
      const res = await request(ctx().app).get(path).set('Cookie', cookie);
      assert.equal(res.headers.location, '/admin');
    }
  });

  it('when the binding cookie is not one of ours (wrong shape), then a fresh one is issued', async () => {
    const res = await request(ctx().app).get('/auth/oauth/github').set('Cookie', 'oauth_binding=short');
    assert.notEqual(setCookies(res).oauth_binding.value, 'short');
  });
});
