import assert from 'node:assert/strict';
import { browserSuite } from '../support/browser-suite';
import { createTestUser } from '../support/users';
import { linkFrom, magicLinkApp } from '../support/magic-link';

describe('magic-link form of the sign-in page in a real browser', function () {
  this.timeout(60_000);
  const suite = browserSuite({ mail: true, app: ({ mail }) => magicLinkApp(mail), pagePerTest: false });

  it('when a user asks for a link (a typo first), then the page says "Check your email", and the mailed link signs them in by the server session', async () => {
    const { server } = suite;
    const user = await createTestUser('viewer', { firstName: 'Mona' });
    const page = await suite.open();
    const context = page.context();
    await page.goto(`${server.url}/auth/login?redirect=/auth/me`);

    await page.getByLabel('Email for a sign-in link').fill('mona-at-example');
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Email me a sign-in link' }).click()]);
    assert.match(await page.locator('#magic-link-email-error').innerText(), /must be a valid email address/);
    assert.equal(await page.getByLabel('Email for a sign-in link').inputValue(), 'mona-at-example');

    await page.getByLabel('Email for a sign-in link').fill(user.email);
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Email me a sign-in link' }).click()]);
    assert.match(await page.locator('[role=status]').innerText(), /Check your email/);

    // The link is built from BASE_URL; the browser opens the same path and query on the served app.
    const link = linkFrom(await suite.mail.waitFor((m) => m.envelope.to.includes(user.email)));
    assert.equal(link.searchParams.get('callbackURL'), '/auth/me');
    await page.goto(`${server.url}${link.pathname}${link.search}`);
    assert.equal(new URL(page.url()).pathname, '/auth/me');
    assert.match(await page.content(), /"firstName":"Mona"/);

    // Without the token cookie, the server session alone still signs the browser in.
    await context.clearCookies({ name: 'auth_token' });
    await page.reload();
    assert.match(await page.content(), /"firstName":"Mona"/);
    const session = (await context.cookies()).find((cookie) => cookie.name === 'auth_session');
    assert.equal(session?.httpOnly, true);
    assert.equal(session?.sameSite, 'Lax');

    // The same link a second time signs nobody in.
    await context.clearCookies();
    await page.goto(`${server.url}${link.pathname}${link.search}`);
    assert.equal(new URL(page.url()).pathname, '/auth/login');
    assert.match(await page.locator('.error').innerText(), /invalid or has expired/);
  });
});
