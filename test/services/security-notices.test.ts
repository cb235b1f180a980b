import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp } from '../support/context';
import { createUserWithToken } from '../support/users';
import { nextClientIp } from '../support/auth';
import { SoftAuthenticator } from '../support/passkey-authenticator';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '../support/smtp-sink';

/** A browser's User-Agent with a phishing line written into it: anyone may send any header. */
const PHISHING_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 ' +
  'SECURITY ALERT call +1-555-0100 or visit https://evil.example/verify';
/** A credential name that carries a link. */
const LINKED_NAME = '<a href="https://evil.example/reset">Reset your password</a>';

/**
 * Issue 44, findings 5 and 6: credential notices name parsed facts (kind, time, browser and OS, IP) and quote a
 * chosen name only last, marked, escaped and unlinked; the raw User-Agent never appears.
 */
describe('security notices (src/services/security-notices.ts)', () => {
  let sink: SmtpSink;
  let app: Express;
  before(async () => {
    sink = await startSmtpSink();
    app = buildApp({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test', TRUST_PROXY: 'true' } });
  });
  after(() => sink.stop());

  /** What every credential notice must (not) say: nothing of the raw header or the link, the parsed browser yes. */
  function assertQuotesNothingRaw(mail: SinkMessage, ip: string): void {
    for (const part of [mail.text, mail.html]) {
      assert.ok(!part.includes('evil.example'), 'no address from a header or a name is quoted as it was sent');
      assert.ok(!part.includes('SECURITY ALERT') && !part.includes('555-0100'), 'the raw User-Agent is never quoted');
      assert.ok(!part.includes('<a href="https://evil'), 'a chosen name never becomes markup');
      assert.match(part, /Chrome 131 on Windows 10/);
      assert.ok(part.includes(ip));
    }
    // The chosen name comes last of what the mail says (only the profile link follows), marked as chosen.
    const named = mail.text.indexOf('Name you gave it: "');
    assert.ok(named > mail.text.indexOf('If this was not you'), 'the chosen name is quoted last');
    assert.match(mail.text, /Name you gave it: "<a href="https\[:\]\/\/evil\[\.\]example\/reset">Reset your password<\/a>"/);
    assert.match(mail.html, /Name you gave it: &quot;&lt;a href=&quot;https\[:\]\/\/evil\[\.\]example\/reset&quot;&gt;/);
  }

  it('when an API key is made, then its owner is mailed its name, permissions, when, browser and OS as parsed and IP (finding 5)', async () => {
    const { user, token } = await createUserWithToken('author');
    const ip = nextClientIp();
    const res = await request(app)
      .post('/auth/api-keys')
      .set('Authorization', `Bearer ${token}`)
      .set('User-Agent', PHISHING_AGENT)
      .set('X-Forwarded-For', ip)
      .send({ name: LINKED_NAME, permissions: ['create:content'] });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const mail = await sink.waitFor((m) => m.envelope.to.includes(user.email) && /API key was created/.test(m.subject));
    assert.match(mail.text, /Permissions: create:content/);
    assert.match(mail.text, /When: /);
    assert.ok(!mail.text.includes(res.body.key) && !mail.html.includes(res.body.key), 'never the key');
    assertQuotesNothingRaw(mail, ip);
  });

  it('when a passkey is added from a browser whose User-Agent carries a phishing line, then the notice names the parsed browser only (finding 6)', async () => {
    const { user, token } = await createUserWithToken('author');
    const ip = nextClientIp();
    const authenticator = new SoftAuthenticator('http://localhost:3000', true);
    const headers = { Authorization: `Bearer ${token}`, 'User-Agent': PHISHING_AGENT, 'X-Forwarded-For': ip };
    const options = await request(app).post('/auth/passkeys/register/options').set(headers).expect(200);
    await request(app).post('/auth/passkeys/register/verify').set(headers).send({ response: authenticator.create(options.body), name: LINKED_NAME }).expect(201);
    const mail = await sink.waitFor((m) => m.envelope.to.includes(user.email) && /passkey was added/.test(m.subject));
    assertQuotesNothingRaw(mail, ip);
  });
});
