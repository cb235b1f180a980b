import assert from 'node:assert/strict';
import request from 'supertest';
import type { Page } from 'playwright-core';
import { ctx } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import { PASSWORD, makeUser } from '../support/auth';
import { screenshot, signInThrough, submit } from '../support/admin-browser';

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** CONTRACT 8's pages: the Sessions card of /admin/profile/sessions and of /admin/users/:id/edit. */
describe('sessions cards in a real browser', function () {
  this.timeout(120_000);
  const suite = browserSuite({ viewport: { width: 1280, height: 900 } });

  /** A sign-in from another device (a phone), through the JSON API: its token. */
  async function signInElsewhere(email: string): Promise<string> {
    const res = await request(ctx().app).post('/auth/login').set('User-Agent', PHONE).send({ email, password: PASSWORD });
    return res.body.token as string;
  }

  const card = (p: Page) => p.locator('section', { has: p.getByRole('heading', { name: 'Sessions' }) });

  it('when a user has another session, then the profile lists both, marks this device, and "Sign out" ends the other', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'author' });
    const phone = await signInElsewhere(user.email);
    await signInThrough(page, server.url, '/admin/profile/sessions', user.email);

    const rows = card(page).locator('tbody tr');
    assert.equal(await rows.count(), 2);
    assert.match((await rows.nth(0).textContent()) ?? '', /This device/);
    assert.match((await rows.nth(1).textContent()) ?? '', /Mobile Safari 17 on iOS 17/);
    await card(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'profile-sessions');

    await submit(page, /^Sign out Mobile Safari 17 on iOS 17/);

    assert.equal(await page.getByRole('status').textContent(), 'That session has been signed out.');
    assert.equal(await card(page).locator('tbody tr').count(), 1);
    assert.equal((await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${phone}`)).status, 401);
  });

  it('when a user signs out everywhere else, then only this device stays', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'viewer' });
    const phones = [await signInElsewhere(user.email), await signInElsewhere(user.email)];
    await signInThrough(page, server.url, '/admin/profile/sessions', user.email);

    await submit(page, 'Sign out everywhere else');

    assert.equal(await page.getByRole('status').textContent(), 'Every other session has been signed out.');
    assert.equal(await card(page).locator('tbody tr').count(), 1);
    for (const token of phones) assert.equal((await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${token}`)).status, 401);
  });

  it("when an admin opens a user's edit page, then the user's sessions are listed and \"Sign out all sessions\" ends them", async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    const user = await makeUser({ role: 'editor' });
    const phone = await signInElsewhere(user.email);
    await signInThrough(page, server.url, `/admin/users/${user.id}/edit`, admin.email);

    assert.equal(await card(page).locator('tbody tr').count(), 1);
    await card(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'user-edit-sessions');
    await submit(page, 'Sign out all sessions');

    assert.equal(await page.getByRole('status').textContent(), 'Every session of this user has been signed out.');
    assert.equal(await card(page).getByText('No active sessions.').count(), 1);
    assert.equal((await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${phone}`)).status, 401);
  });
});
