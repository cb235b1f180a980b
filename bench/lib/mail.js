'use strict';
// Mail the service sends, caught on loopback: the codes and links of the passwordless flows.
const { sleep } = require('./settings');
const { nextAddress } = require('./clients');

/** A message's text with quoted-printable soft breaks, `=3D` and `&amp;` undone, so links read whole. */
const decode = (raw) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=').replace(/&amp;/g, '&');

/** An SMTP listener on loopback that keeps every message's raw text (for the magic link). */
async function startMailSink() {
  const { SMTPServer } = require('smtp-server');
  const messages = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        messages.push(raw);
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${server.server.address().port}`, messages, stop: () => new Promise((resolve) => server.close(resolve)) };
}

/** Signs in by magic link and answers the auth_session cookie value, or null when the flow is unavailable. */
async function magicLinkSession(url, sink, email) {
  const asked = await fetch(`${url}/auth/sign-in/magic-link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: JSON.stringify({ email }),
  });
  if (asked.status !== 200) return null;
  // Other mail reaches the sink too (a registration's verification link): wait for this address's sign-in link.
  const isLink = (raw) => raw.includes(email) && decode(raw).includes('/auth/magic-link/verify');
  for (let i = 0; i < 100 && !sink.messages.some(isLink); i++) await sleep(50);
  const text = decode(sink.messages.find(isLink) ?? '');
  const link = /https?:\/\/[^\s"<>]+\/auth\/magic-link\/verify\?[^\s"<>]+/.exec(text)?.[0];
  if (!link) return null;
  // Production cookies are Secure: express-session sets one only on a request that came over TLS (per the proxy).
  const verified = await fetch(link, { redirect: 'manual', headers: { 'x-forwarded-for': nextAddress(), 'x-forwarded-proto': 'https' } });
  const cookie = verified.headers.getSetCookie().find((value) => value.startsWith('auth_session='));
  return cookie ? cookie.split(';')[0] : null;
}

/**
 * The decoded text (quoted-printable soft breaks and `=3D` undone) of the first mail after the first `count` that
 * matches `pattern`, once it has arrived: other mail (a registration's verification link) may arrive meanwhile.
 */
async function nextMail(sink, count, pattern) {
  const found = () => sink.messages.slice(count).map(decode).find((text) => pattern.test(text));
  for (let i = 0; i < 200 && !found(); i++) await sleep(10);
  return found() ?? '';
}

/** Follows the address-verification link a registration mailed to `email` (some features want a verified address). */
async function verifyAddress(sink, email) {
  const isLink = (raw) => raw.includes(email) && decode(raw).includes('/auth/verify-email?');
  for (let i = 0; i < 200 && !sink.messages.some(isLink); i++) await sleep(25);
  const link = /https?:\/\/[^\s"<>]+\/auth\/verify-email\?[^\s"<>]+/.exec(decode(sink.messages.find(isLink) ?? ''))?.[0];
  if (!link) throw new Error(`no verification link reached ${email}`);
  const verified = await fetch(link, { redirect: 'manual', headers: { 'x-forwarded-for': nextAddress() } });
  if (verified.status >= 400) throw new Error(`verifying ${email} answered ${verified.status}`);
}

module.exports = { startMailSink, magicLinkSession, nextMail, verifyAddress };
