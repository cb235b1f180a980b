import assert from 'node:assert/strict';
import { renderMagicLinkEmail } from '../../src/mail/magic-link-email';

describe('magic-link email', () => {
  it('when rendered, then both parts carry the link and the expiry, and the HTML escapes the address', () => {
    const url = 'https://auth.example.test/auth/magic-link/verify?token=abc&callbackURL=%2Fadmin"><script>';
    const mail = renderMagicLinkEmail({ url, expiresInMinutes: 15 });
    assert.equal(mail.subject, 'Your sign-in link');
    assert.ok(mail.text.includes(url));
    assert.match(mail.text, /expires in 15 minutes and can be used once/);
    assert.match(mail.html, /expires in 15 minutes and can be used once/);
    assert.ok(mail.html.includes('token=abc&amp;callbackURL=%2Fadmin&quot;&gt;&lt;script&gt;'));
    assert.doesNotMatch(mail.html, /<script>/);
  });
});
