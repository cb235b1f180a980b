import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Express } from 'express';
import { Webhook } from 'standardwebhooks';
import { uniqueEmail } from '../support/context';
import { createUserWithToken } from '../support/users';
import { twoInstances } from '../support/two-instances';
import { outboxOf } from '../../src/app';

/**
 * CONTRACT 16 across instances (one database, one Redis): an endpoint added on one instance is listened for on
 * the other at once, though it had cached "nobody listens"; with both workers running, every event is delivered
 * exactly once (each delivery is claimed by one instance at a time).
 */
describe('webhooks across two service instances', function () {
  this.timeout(60_000);
  const instances = twoInstances();

  it('when both instances fire events and both workers run, then each event arrives once, verified', async () => {
    const { first, second } = instances;
    const ids: string[] = [];
    const bodies: Array<{ body: string; headers: http.IncomingHttpHeaders }> = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        ids.push(String(req.headers['webhook-id']));
        bodies.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        // A slow receiver widens the window in which the other worker could claim the same row.
        setTimeout(() => res.writeHead(200).end(), 50);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const { token } = await createUserWithToken('admin');
    const auth = { Authorization: `Bearer ${token}` };
    const createUser = (on: Express) => request(on).post('/api/users').set(auth).send({ email: uniqueEmail('twice'), password: 'a long enough password 1' }).expect(201);
    try {
      // The second instance caches "nobody listens for user.created" before the endpoint exists.
      await createUser(second);
      const created = await request(first).post('/api/webhooks').set(auth).send({ url, events: ['user.created'] });
      assert.equal(created.status, 201);
      outboxOf(first).start();
      outboxOf(second).start();
      const made = 12;
      for (let i = 0; i < made; i++) await createUser(i % 2 === 0 ? first : second);
      const deadline = Date.now() + 20_000;
      while (ids.length < made && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      // Time for a duplicate to show up, were one coming.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      assert.equal(ids.length, made, `every event once: ${ids.length} deliveries for ${made} users`);
      assert.equal(new Set(ids).size, made);
      for (const { body, headers } of bodies) new Webhook(created.body.secret as string).verify(body, headers as Record<string, string>);
    } finally {
      await Promise.all([outboxOf(first).stop(), outboxOf(second).stop()]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
