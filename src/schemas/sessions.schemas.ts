import { z } from 'zod';
import type { Endpoint } from '../http/api-router';

/** A session id is a UUID: anything else is a malformed id (400), never a lookup. */
const sessionId = z.uuid({ message: 'must be a session id' });
export const sessionParams = z.strictObject({ id: sessionId });
export const userSessionParams = z.strictObject({ id: z.string().min(1).max(64, { message: 'must be at most 64 characters' }), sid: sessionId });
export const userParams = z.strictObject({ id: z.string().min(1).max(64, { message: 'must be at most 64 characters' }) });

const session = z.object({
  id: z.string(),
  method: z.string().describe('password, otp, magic_link, github, google, passkey, registration'),
  createdAt: z.string().describe('ISO 8601'),
  lastUsedAt: z.string().describe('ISO 8601; moves at refresh, and at most once a minute on other requests'),
  expiresAt: z.string().describe('ISO 8601: the absolute end, however often it is refreshed'),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  current: z.boolean().describe('this request is signed in by this session'),
});
const sessionList = z.object({ sessions: z.array(session) });
const revoked = z.object({ revoked: z.number().int() });

const stepUp = { 403: '"Recent sign-in required" with stepUp: true (the sign-in is older than 10 minutes)' };
const tags = ['Sessions'];
const adminTags = ['Users'];
const adminDenials = { 401: 'not signed in', 403: 'Insufficient permissions' };

/** CONTRACT 8: the signed-in user's own sessions, and an admin's view of anyone's. */
export const SESSIONS_ENDPOINTS = {
  mine: {
    summary: "The signed-in user's live sessions, newest first (this one marked current)",
    tags,
    auth: true,
    responses: { 200: { description: 'live sessions', schema: sessionList } },
  },
  revokeMine: {
    summary: 'Sign out one of your sessions (every token of it, on every instance)',
    tags,
    auth: true,
    params: sessionParams,
    responses: { 204: 'ended', 404: 'no live session of yours has that id', ...stepUp },
  },
  revokeOthers: {
    summary: 'Sign out every session but this one',
    tags,
    auth: true,
    responses: { 200: { description: 'how many ended', schema: revoked }, ...stepUp },
  },
  ofUser: {
    summary: "A user's live sessions",
    tags: adminTags,
    auth: true,
    params: userParams,
    responses: { 200: { description: 'live sessions', schema: sessionList }, 404: 'no such user', ...adminDenials },
  },
  revokeOfUser: {
    summary: "End one of a user's sessions",
    tags: adminTags,
    auth: true,
    params: userSessionParams,
    responses: { 204: 'ended', 404: 'no such user, or no live session of theirs with that id', ...adminDenials },
  },
  revokeAllOfUser: {
    summary: "End every session of a user",
    tags: adminTags,
    auth: true,
    params: userParams,
    responses: { 200: { description: 'how many ended', schema: revoked }, 404: 'no such user', ...adminDenials },
  },
} satisfies Record<string, Endpoint>;
