import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import type { SinkMessage, SmtpSink } from './smtp-sink';

/** The code of an OTP mail (its text part). */
export function otpCodeFrom(message: SinkMessage): string {
  const match = message.text.match(/Your login code: (\d+)/);
  assert.ok(match, 'the mail carries a code');
  return match[1];
}

/** Switches the otp-login plugin on with these settings through the admin API, as an admin would. */
export async function configureOtp(app: Express, admin: { Authorization: string }, settings: Record<string, unknown> = {}, active = true): Promise<void> {
  const res = await request(app).put('/api/plugins/otp-login').set(admin).send({ active, settings });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** Requests a code for the email (from `clientIp` when given) and reads it from the mail the SMTP listener receives. */
export async function mailedOtpCode(app: Express, sink: SmtpSink, email: string, clientIp?: string): Promise<string> {
  const before = sink.messages.length;
  const ask = request(app).post('/auth/otp/request');
  if (clientIp) ask.set('X-Forwarded-For', clientIp);
  const res = await ask.send({ email });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return otpCodeFrom(await sink.waitFor((m) => m.envelope.to.includes(email) && sink.messages.indexOf(m) >= before));
}

/** A code of the same length that is not `code`. */
export function wrongOtpCode(code: string): string {
  return code.replace(/^./, (digit) => String((Number(digit) + 1) % 10));
}
