import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../../support/context';
import { signedIn, type PageSession } from '../../support/admin-pages';
import { otpGuessOdds } from '../../../src/controllers/admin/otp-preview';

/** The odds sentence of the OTP plugin page, entities decoded. */
function oddsOn(html: string): string | undefined {
  return /<p class="hint" id="otp-odds">([^<]*)<\/p>/.exec(html)?.[1]?.replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

describe('admin pages: the OTP plugin page states what a code-guessing attacker can reach', () => {
  let admin: PageSession;
  const page = () => request(ctx().app).get('/admin/plugins/otp-login').set('Cookie', admin.cookie).set('Accept', 'text/html');

  before(async () => {
    admin = await signedIn('admin');
  });
  beforeEach(() => ctx().models.Plugin.destroy({ where: {} }));
  after(() => ctx().models.Plugin.destroy({ where: {} }));

  it('when the settings are the defaults (6 digits, 3 attempts, 5 codes an hour), then the page gives the odds per window and per day', async () => {
    const res = await page();
    assert.equal(res.status, 200);
    assert.equal(
      oddsOn(res.text),
      'Wrong codes count in the per-account throttle like wrong passwords. An attacker gets at most 10 guesses per 15 minutes per account: ' +
        'about 1 in 100,000 per window for 6-digit codes (≈ 1 in 2,778 per day).',
    );
  });

  it('when the review\'s weak settings are saved (4 digits, 10 attempts, 1000 codes an hour), then the page says how poor the odds are', async () => {
    await ctx().models.Plugin.create({ name: 'otp-login', active: true, settings: { codeLength: 4, maxAttempts: 10, rateLimitPerHour: 1000 } });
    assert.match(oddsOn((await page()).text) ?? '', /at most 10 guesses per 15 minutes per account: about 1 in 1,000 per window for 4-digit codes \(≈ 1 in 10 per day\)\.$/);
  });

  describe('otpGuessOdds', () => {
    it('when maxAttempts × rateLimitPerHour is below the throttle, then that smaller number bounds the guesses', () => {
      assert.equal(
        otpGuessOdds({ codeLength: 8, maxAttempts: 3, rateLimitPerHour: 1 }),
        'An attacker gets at most 3 guesses per 15 minutes per account: about 1 in 33,333,333 per window for 8-digit codes (≈ 1 in 1,388,889 per day).',
      );
    });

    it('when the throttle rule differs, then the figures follow it', () => {
      assert.match(otpGuessOdds({ codeLength: 6, maxAttempts: 10, rateLimitPerHour: 100 }, { maxFailures: 5, windowSeconds: 3600 }), /at most 5 guesses per 60 minutes per account: about 1 in 200,000 per window .*1 in 8,333 per day/);
    });
  });
});
