import assert from 'node:assert/strict';
import { buildApp, ctx } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import { createTestUser } from '../support/users';

describe('OTP sign-in page in a real browser', function () {
  this.timeout(60_000);
  const suite = browserSuite({ mail: true, app: ({ mail }) => buildApp({ env: { SMTP_URL: mail.url } }), pagePerTest: false });
  before(async () => {
    await ctx().models.Plugin.upsert({ name: 'otp-login', active: true, settings: {} });
  });
  after(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
  });

  it('when a user follows "Sign in with a code", types a wrong code and then the mailed one, then they land signed in on the redirect', async () => {
    const { server } = suite;
    const user = await createTestUser('viewer', { firstName: 'Otto' });
    const page = await suite.open();
    await page.goto(`${server.url}/auth/login?redirect=/auth/me`);

    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Sign in with a code' }).click()]);
    await page.getByLabel('Email').fill(user.email);
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Email me a code' }).click()]);
    assert.match(await page.locator('[role=status]').innerText(), /If an account exists for this email/);
    const mail = await suite.mail.waitFor((m) => m.envelope.to.includes(user.email));
    const code = /Your login code: (\d+)/.exec(mail.text)?.[1] as string;

    await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in' }).click()]);
    assert.match(await page.locator('.error').innerText(), /Invalid or expired code \(attempts remaining: 2\)/);

    await page.getByLabel('Code').fill(code);
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in' }).click()]);
    assert.equal(new URL(page.url()).pathname, '/auth/me');
    assert.match(await page.content(), /"firstName":"Otto"/);
  });
});
