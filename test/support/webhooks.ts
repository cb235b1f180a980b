import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { createUserWithToken } from './users';

/**
 * Deletes every webhook endpoint through the API, as an admin would: the subscription version changes, so every app
 * of the run stops writing events at once. A suite that adds endpoints calls it last, or later tests would find
 * events written beside what they count (a sign-in's statements, say).
 */
export async function removeAllWebhooks(app: Express): Promise<void> {
  const { token } = await createUserWithToken('admin');
  const list = await request(app).get('/api/webhooks').set('Authorization', `Bearer ${token}`);
  assert.equal(list.status, 200, JSON.stringify(list.body));
  const endpoints = list.body.webhooks as Array<{ id: string }>;
  for (const { id } of endpoints) {
    const gone = await request(app).delete(`/api/webhooks/${id}`).set('Authorization', `Bearer ${token}`);
    assert.equal(gone.status, 204, JSON.stringify(gone.body));
  }
}
