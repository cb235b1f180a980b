import assert from 'node:assert/strict';
import express from 'express';
import request from 'supertest';
import { ConnectionError } from 'sequelize';
import { createSessionStep } from '../../src/sign-in/session-step';
import { errorHandler } from '../../src/http/error-handler';
import type { AuthUser } from '../../src/sessions/auth-user';
import type { SignInFailure, SignInInfo } from '../../src/sign-in/sign-in-result';
import type { ActivityService } from '../../src/services/operations/activity.service';
import type { AuthCookies } from '../../src/sign-in/cookies';
import type { TokenService } from '../../src/sessions/token.service';

const USER = { id: 'u1', email: 'one@example.test', username: 'one', firstName: null, lastName: null, role: 'viewer', tokenEpoch: 0 } as unknown as AuthUser;

/** The session step after a fake strategy that hands it `info`; issue() may be made to fail like a lost database. */
function appWith(info: SignInInfo, issue: TokenService['issue']) {
  const recorded: string[] = [];
  const discarded: string[] = [];
  const issueSession = createSessionStep({
    tokens: { issue },
    userSessions: {
      start: async () => ({ sid: 'sid-1', authTime: 0 }),
      discard: async (sid: string) => void discarded.push(sid),
    },
    cookies: { set: () => undefined } as unknown as AuthCookies,
    activity: { record: async (entry: { action: string }) => void recorded.push(entry.action) } as unknown as ActivityService,
    profiles: { presentUser: (user: AuthUser) => ({ id: user.id }) } as never,
  });
  const app = express();
  app.post(
    '/sign-in',
    (req, _res, next) => {
      req.user = USER;
      req.authInfo = info;
      next();
    },
    issueSession('auth.otp_verified'),
  );
  app.use(errorHandler);
  return { app, recorded, discarded };
}

const issued: TokenService['issue'] = async () => ({ token: 'signed', expiresIn: 60, claims: {} as never });

describe('session step: one-time credentials', () => {
  it('when the token cannot be issued (database gone), then 503 and the credential is not spent', async () => {
    let spent = 0;
    const { app } = appWith({ method: 'otp', spend: async () => (spent++, null) }, async () => {
      throw new ConnectionError(new Error('connect ECONNREFUSED'));
    });
    const res = await request(app).post('/sign-in').set('Accept', 'application/json');
    assert.equal(res.status, 503);
    assert.deepEqual(res.body, { error: 'Service unavailable' });
    assert.equal(spent, 0);
  });

  it('when the credential is spent, then the session is answered', async () => {
    let spent = 0;
    const { app, recorded } = appWith({ method: 'otp', spend: async () => (spent++, null) }, issued);
    const res = await request(app).post('/sign-in').set('Accept', 'application/json');
    assert.equal(res.status, 200);
    assert.equal(res.body.token, 'signed');
    assert.equal(spent, 1);
    assert.deepEqual(recorded, ['auth.otp_verified']);
  });

  it('when a parallel use spent it first, then the refusal is answered and audited, without a token, and its session is discarded', async () => {
    const refusal: SignInFailure = {
      message: 'Invalid or expired code',
      body: { attemptsRemaining: 0 },
      audit: { action: 'auth.login_failed', userId: 'u1', email: USER.email, details: { reason: 'already_used' } },
    };
    const { app, recorded, discarded } = appWith({ method: 'otp', spend: async () => refusal }, issued);
    const res = await request(app).post('/sign-in').set('Accept', 'application/json');
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { error: 'Invalid or expired code', attemptsRemaining: 0 });
    assert.deepEqual(recorded, ['auth.login_failed']);
    assert.deepEqual(discarded, ['sid-1']);
  });
});
