import assert from 'node:assert/strict';
import { renderOtpEmail, type OtpEmailSettings } from '../../src/mail/otp-email';
import { otpLoginSettings } from '../../src/plugins/otp-login.plugin';

const defaults: OtpEmailSettings = otpLoginSettings.parse({});

describe('renderOtpEmail (the code mail and the admin preview)', () => {
  it('when rendered with the defaults, then it has the subject, the code in both parts, the expiry and attempts, and no logo or button', () => {
    const mail = renderOtpEmail(defaults, { code: '042917' });

    assert.equal(mail.subject, 'Your login code');
    assert.match(mail.html, /monospace[^"]*font-size:36px[^>]*>042917</);
    assert.match(mail.text, /Your login code: 042917/);
    assert.match(mail.html, /expires in 10 minutes and can be tried 3 times/);
    assert.match(mail.text, /expires in 10 minutes and can be tried 3 times/);
    assert.doesNotMatch(mail.html, /<img/);
    assert.doesNotMatch(mail.html, /<a /);
  });

  it('when the border width is 0, then the logo has its width but neither border nor radius', () => {
    const mail = renderOtpEmail({ ...defaults, logoUrl: 'https://cdn.example.test/l.png', logoWidth: 200, logoBorderWidth: 0, logoBorderColor: 'red' }, { code: '1234' });

    assert.match(mail.html, /<img src="https:\/\/cdn\.example\.test\/l\.png"[^>]*width="200"[^>]*style="width:200px;/);
    assert.doesNotMatch(mail.html, /border:\d+px solid/);
    assert.doesNotMatch(mail.html, /<img[^>]*border-radius/);
  });

  it('when the border width is above 0, then the logo gets a solid border of that colour and a matching radius', () => {
    const mail = renderOtpEmail({ ...defaults, logoUrl: 'https://cdn.example.test/l.png', logoBorderWidth: 4, logoBorderColor: '#336699' }, { code: '1234' });

    assert.match(mail.html, /<img[^>]*style="[^"]*border:4px solid #336699;border-radius:8px"/);
  });

  it('when settings hold hostile values, then they are escaped or left out, never injected', () => {
    const hostile = {
      ...defaults,
      logoUrl: 'javascript:alert(1)',
      loginUrl: 'https://app.example.test/?a="><script>x</script>',
      loginButtonText: '<img src=x onerror=alert(1)>',
      logoBorderWidth: 2,
      logoBorderColor: 'red;background:url(https://evil.test)',
    };
    const mail = renderOtpEmail(hostile, { code: '<b>1</b>' });

    assert.doesNotMatch(mail.html, /javascript:/);
    assert.doesNotMatch(mail.html, /<script>/);
    assert.doesNotMatch(mail.html, /<img src=x/);
    assert.doesNotMatch(mail.html, /evil\.test/);
    assert.doesNotMatch(mail.html, /<b>1<\/b>/);
    assert.match(mail.html, /href="https:\/\/app\.example\.test\/\?a=&quot;&gt;&lt;script&gt;x&lt;\/script&gt;"/);
    assert.match(mail.html, />&lt;img src=x onerror=alert\(1\)&gt;<\/a>/);
  });

  it('when a login URL is set without button text, then the button reads "Sign in" and the text part carries the link', () => {
    const mail = renderOtpEmail({ ...defaults, loginUrl: 'https://app.example.test/login' }, { code: '123456' });

    assert.match(mail.html, /<a href="https:\/\/app\.example\.test\/login"[^>]*>Sign in<\/a>/);
    assert.match(mail.text, /Sign in: https:\/\/app\.example\.test\/login/);
  });
});
