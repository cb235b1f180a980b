import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ctx } from '../../support/context';
import { PASSWORD, makeUser, nextClientIp, proxiedApp } from '../../support/auth';
import { formBody, sessionFor, type PageSession } from '../../support/admin-pages';
import { ACCOUNT_THROTTLE } from '../../../src/credentials/account-throttle';

/** A password change from the profile page, each from its own client address: only the account throttle can refuse. */
function changePassword(app: Express, session: PageSession, currentPassword: string) {
  return request(app)
    .post('/admin/profile/password')
    .set('Cookie', session.cookie)
    .set('X-Forwarded-For', nextClientIp())
    .set('Accept', 'text/html')
    .type('form')
    .send(formBody({ _csrf: session.csrf, currentPassword, newPassword: 'a brand new password' }));
}

function signIn(app: Express, email: string, password: string) {
  return request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email, password });
}

describe('admin profile page: the current password goes through the account throttle', () => {
  let app: Express;
  before(() => {
    app = proxiedApp();
  });

  it('when 10 wrong current passwords are posted, then the account is blocked and the 11th, with the right password, is refused unevaluated', async () => {
    const user = await makeUser();
    const session = await sessionFor(user);
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_THROTTLE.maxFailures; i++) statuses.push((await changePassword(app, session, `wrong guess ${i}`)).status);
    assert.deepEqual(statuses, Array(ACCOUNT_THROTTLE.maxFailures).fill(400));

    const right = await changePassword(app, session, PASSWORD);
    assert.equal(right.status, 429);
    assert.ok(Number(right.headers['retry-after']) > 0);
    assert.match(right.text, /Your password was not changed\. Too many requests\. Please try again later\./);
    const stored = await ctx().models.User.findByPk(user.id, { rejectOnEmpty: true });
    assert.equal(stored.passwordHash, user.passwordHash);
    // The same counter as sign-in: the password itself is blocked there too.
    assert.equal((await signIn(app, user.email, PASSWORD)).status, 429);
  });

  it('when wrong sign-ins blocked the account, then the profile page refuses the right current password too', async () => {
    const user = await makeUser();
    const session = await sessionFor(user);
    for (let i = 0; i < ACCOUNT_THROTTLE.maxFailures; i++) assert.equal((await signIn(app, user.email, `wrong sign-in ${i}`)).status, 401);
    assert.equal((await changePassword(app, session, PASSWORD)).status, 429);
  });

  it('when the right current password comes before the limit, then the change goes through and the failures are forgotten', async () => {
    const user = await makeUser();
    const session = await sessionFor(user);
    for (let i = 0; i < ACCOUNT_THROTTLE.maxFailures - 1; i++) await changePassword(app, session, `wrong guess ${i}`);
    assert.equal((await changePassword(app, session, PASSWORD)).status, 303);
    for (let i = 0; i < ACCOUNT_THROTTLE.maxFailures - 1; i++) assert.equal((await signIn(app, user.email, `wrong sign-in ${i}`)).status, 401);
    assert.equal((await signIn(app, user.email, 'a brand new password')).status, 200);
  });
});
