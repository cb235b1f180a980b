import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ctx, uniqueEmail } from '../support/context';
import { createUserWithToken } from '../support/users';
import { removeAllWebhooks } from '../support/webhooks';
import { startService, type ServiceProcess } from '../support/service-process';

/** Polls until `check` holds or the time is up; answers the last value read. */
async function eventually<T>(read: () => Promise<T> | T, check: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * CONTRACT 16: the work survives any instance's restart. The service runs as its own process; killed (SIGKILL,
 * no shutdown) while a delivery waits for its retry, and started again on the same database, it delivers it.
 */
describe('webhook deliveries survive a killed service process', function () {
  this.timeout(90_000);
  let service: ServiceProcess | undefined;

  afterEach(async () => {
    await service?.stop();
  });

  it('when the service is killed with a delivery pending, then after a restart the delivery arrives with its webhook-id', async () => {
    let accept = false;
    const answered: Array<{ id: string; status: number }> = [];
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const status = accept ? 200 : 500;
        answered.push({ id: String(req.headers['webhook-id']), status });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const { token } = await createUserWithToken('admin');
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
      service = await startService();
      const created = await fetch(`${service.baseUrl}/api/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url, events: ['user.created'] }) });
      assert.equal(created.status, 201);
      const user = await fetch(`${service.baseUrl}/api/users`, { method: 'POST', headers, body: JSON.stringify({ email: uniqueEmail('restart'), password: 'a long enough password 1' }) });
      assert.equal(user.status, 201);

      const { models } = ctx();
      const endpointId = ((await created.json()) as { webhook: { id: string } }).webhook.id;
      const failedOnce = await eventually(() => models.OutboxEntry.findOne({ where: { endpointId } }), (row) => row !== null && row.attempts >= 1);
      assert.equal(failedOnce?.status, 'pending');
      await service.stop();
      service = undefined;

      accept = true;
      service = await startService();
      await eventually(() => answered, (list) => list.some((answer) => answer.status === 200));
      const delivered = answered.find((answer) => answer.status === 200);
      assert.equal(delivered?.id, failedOnce?.id, 'the same delivery, its webhook-id kept');
      const row = await eventually(() => models.OutboxEntry.findByPk(failedOnce?.id as string), (entry) => entry?.status === 'delivered');
      assert.equal(row?.status, 'delivered');
    } finally {
      await removeAllWebhooks(ctx().app);
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
