import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { ctx, uniqueEmail } from '../support/context';
import { PASSWORD, makeUser, proxiedApp, nextClientIp } from '../support/auth';
import { createUserWithToken } from '../support/users';
import { PASSWORD_QUALITY_MESSAGES } from '../../src/credentials/password-quality';
import { hashResetToken } from '../../src/services/sign-in-methods/password-reset.service';

/** A unique local part long enough to be a password on its own (8+ characters, not a dictionary word). */
const uniqueLocal = (label: string) => `${label}${crypto.randomBytes(4).toString('hex')}`;

describe('passwords judged with the account they are for, in NFKC form (issue 44, finding 4)', () => {
  let app: Express;
  before(() => {
    app = proxiedApp({ APP_NAME: 'Quokkaville Portal' });
  });
  const register = (body: Record<string, unknown>) => request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).send(body);
  const login = (email: string, password: string) => request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email, password });

  describe('registration', () => {
    it('when the password is the email\'s local part, the whole email, the username or a name, then 400 naming the password and why', async () => {
      const local = uniqueLocal('zephyrine');
      const cases: Array<Record<string, string>> = [
        { email: `${local}@example.test`, password: local },
        { email: `${local}@example.test`, password: `${local}@example.test` },
        { email: uniqueEmail('ctx'), username: `Marlowe${local}`, password: `marlowe${local}` },
        { email: uniqueEmail('ctx'), firstName: `Bartholomew${local}`, password: `Bartholomew${local}` },
        { email: uniqueEmail('ctx'), lastName: `Featherstonehaugh`, password: 'Featherstonehaugh' },
      ];
      for (const body of cases) {
        const res = await register(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.errors?.password, PASSWORD_QUALITY_MESSAGES.personal, JSON.stringify(body));
      }
    });

    it('when the password is APP_NAME or built from the email\'s local part, then 400; an unrelated strong password still registers', async () => {
      const local = uniqueLocal('quintessa');
      const email = `${local}@example.test`;
      assert.equal((await register({ email: uniqueEmail('app'), password: 'quokkaville portal' })).status, 400);
      const built = await register({ email, password: `${local}2024` });
      assert.equal(built.status, 400);
      assert.ok(built.body.errors?.password);
      assert.equal((await register({ email, password: PASSWORD })).status, 201);
    });

    it('when the form is posted with the username as password, then the form again naming the password field', async () => {
      const local = uniqueLocal('oriander');
      const res = await request(app)
        .post('/auth/register')
        .set('X-Forwarded-For', nextClientIp())
        .type('form')
        .send({ email: uniqueEmail('form'), username: local, password: local });
      assert.equal(res.status, 400);
      assert.ok(res.text.includes(PASSWORD_QUALITY_MESSAGES.personal.replace(/'/g, '&#39;')) || res.text.includes(PASSWORD_QUALITY_MESSAGES.personal));
    });

    it('when a password is set in a compatibility form (fullwidth), then it is stored as its NFKC form: both spellings sign in', async () => {
      const email = uniqueEmail('nfkc');
      const fullwidth = 'ｃｏｒｒｅｃｔ ｈｏｒｓｅ ｂａｔｔｅｒｙ';
      assert.equal((await register({ email, password: fullwidth })).status, 201);

      assert.equal((await login(email, PASSWORD)).status, 200, 'the NFKC form');
      assert.equal((await login(email, fullwidth)).status, 200, 'as typed');
    });

    it('when a password is the username only after NFKC (fullwidth letters), then it is refused as the username itself', async () => {
      const local = uniqueLocal('vesperine');
      const fullwidth = [...local].map((c) => (/[a-z0-9]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');
      const res = await register({ email: uniqueEmail('nfkc-user'), username: local, password: fullwidth });
      assert.equal(res.status, 400);
      assert.equal(res.body.errors?.password, PASSWORD_QUALITY_MESSAGES.personal);
    });
  });

  describe('other paths that set a password', () => {
    it('when a reset sets the password to the account\'s email local part, then 400 naming it, and the link still works for a good one', async () => {
      const local = uniqueLocal('thaddeus');
      const user = await makeUser({ email: `${local}@example.test` });
      const token = crypto.randomBytes(32).toString('base64url');
      await ctx().models.PasswordResetToken.create({ id: crypto.randomUUID(), userId: user.id, tokenHash: hashResetToken(token), expiresAt: new Date(Date.now() + 3600_000) });

      const refused = await request(app).post('/auth/reset-password').send({ token, password: local });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errors?.password, PASSWORD_QUALITY_MESSAGES.personal);
      await request(app).post('/auth/reset-password').send({ token, password: 'ｎｅｗ ｐａｓｓｗｏｒｄ ｐｌｅａｓｅ ９' }).expect(200);
      assert.equal((await login(user.email, 'new password please 9')).status, 200);
    });

    it('when an admin creates a user whose password is its username, then 400 naming the password', async () => {
      const { token } = await createUserWithToken('admin');
      const local = uniqueLocal('cassiopea');
      const res = await request(app).post('/api/users').set('Authorization', `Bearer ${token}`).send({ email: uniqueEmail('admin-made'), username: local, password: local });
      assert.equal(res.status, 400);
      assert.equal(res.body.errors?.password, PASSWORD_QUALITY_MESSAGES.personal);
    });
  });
});
