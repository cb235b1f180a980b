import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request, { type Response } from 'supertest';
import type { Express } from 'express';
import { buildApp } from './context';
import type { SinkMessage, SmtpSink } from './smtp-sink';

/** A secret of the length the config accepts; every magic-link test app uses it. */
export const EXTERNAL_AUTH_SECRET = crypto.randomBytes(24).toString('hex');

/** An app with magic links available: the secret set and mail going to the sink. */
export function magicLinkApp(sink: SmtpSink, env: Record<string, string | undefined> = {}): Express {
  return buildApp({ env: { EXTERNAL_AUTH_SECRET, SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test', ...env } });
}

/** The sign-in link of a magic-link mail (its text part), as a URL. */
export function linkFrom(message: SinkMessage): URL {
  const match = /(https?:\/\/\S+\/auth\/magic-link\/verify\?\S+)/.exec(message.text);
  assert.ok(match, 'the mail carries a sign-in link');
  return new URL(match[1]);
}

/** Asks for a link for the email and reads it from the mail the SMTP listener receives. */
export async function mailedLink(app: Express, sink: SmtpSink, email: string, body: Record<string, unknown> = {}): Promise<URL> {
  const before = sink.messages.length;
  const res = await request(app).post('/auth/sign-in/magic-link').send({ email, ...body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return linkFrom(await sink.waitFor((m) => m.envelope.to.includes(email) && sink.messages.indexOf(m) >= before));
}

/** Follows a link the way a click does (path and query against the given app instance). */
export function follow(app: Express, link: URL): Promise<Response> {
  return request(app).get(`${link.pathname}${link.search}`).set('Accept', 'text/html');
}

/** Signs the email in by link: the verify answer (302 with auth_token, csrf_token and auth_session). */
export async function signInByLink(app: Express, sink: SmtpSink, email: string): Promise<Response> {
  const res = await follow(app, await mailedLink(app, sink, email));
  assert.equal(res.status, 302);
  assert.equal(res.headers.location, '/admin');
  return res;
}
