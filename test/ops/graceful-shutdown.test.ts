import assert from 'node:assert/strict';
import net from 'node:net';
import crypto from 'node:crypto';
import { startService, acceptQueueLength, listenerState, type ServiceProcess } from '../support/service-process';
import { uniqueEmail } from '../support/context';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A random address for X-Forwarded-For, so the per-IP login limit never decides these tests. */
function randomIp(): string {
  return `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
}

function loginRequest(email: string, password: string): string {
  const body = JSON.stringify({ email, password });
  return [
    'POST /auth/login HTTP/1.1',
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    'Accept: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Forwarded-For: ${randomIp()}`,
    '',
    body,
  ].join('\r\n');
}

/** A raw keep-alive connection: each exchange writes a request and reads one complete response. */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiting?: { resolve: (res: RawResponse) => void; reject: (err: Error) => void };
  readonly closed: Promise<{ error?: string }>;
  readonly socket: net.Socket;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.tryParse();
    });
    this.closed = new Promise((resolve) => {
      let error: string | undefined;
      socket.on('error', (err: NodeJS.ErrnoException) => {
        error = err.code ?? err.message;
      });
      socket.on('close', () => {
        this.waiting?.reject(new Error(`connection closed before a complete response (${error ?? 'FIN'})`));
        this.waiting = undefined;
        resolve({ error });
      });
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Resolves once the request is handed to the kernel (fully sent); `response` resolves with the answer. */
  send(text: string): { sent: Promise<void>; response: Promise<RawResponse> } {
    const response = new Promise<RawResponse>((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
    const sent = new Promise<void>((resolve, reject) => this.socket.write(text, (err) => (err ? reject(err) : resolve())));
    return { sent, response };
  }

  private tryParse(): void {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end === -1 || !this.waiting) return;
    const [statusLine, ...headerLines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting.resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
  }
}

function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('graceful shutdown (the service as a child process)', function () {
  this.timeout(90_000);
  let service: ServiceProcess | undefined;

  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  it('when SIGTERM arrives with 50 sent logins in flight, then every accepted request is answered in full, new connections are refused, and it exits 0 within 10 s', async () => {
    // Real hashing keeps the logins in flight while the signal arrives; TRUST_PROXY lets each come from its own address.
    service = await startService({ TRUST_PROXY: 'loopback', PASSWORD_PBKDF2_ITERATIONS: '60000' });
    const { port, baseUrl } = service;
    const email = uniqueEmail('shutdown');
    const password = 'correct horse battery';
    const registered = await fetch(`${baseUrl}/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': randomIp() },
      body: JSON.stringify({ email, password }),
    });
    assert.equal(registered.status, 201);

    // Idle keep-alive connections: each has finished one exchange and sends nothing more.
    const idle = await Promise.all(Array.from({ length: 3 }, () => RawConnection.open(port)));
    for (const connection of idle) {
      const { response } = connection.send('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      assert.equal((await response).status, 200);
    }
    // Accepted connections whose request only comes after the signal (the server has read nothing on them).
    const late = await Promise.all(Array.from({ length: 5 }, () => RawConnection.open(port)));
    // Fifty connections with a login fully sent.
    const busy = await Promise.all(Array.from({ length: 50 }, () => RawConnection.open(port)));
    const inFlight = busy.map((connection) => connection.send(loginRequest(email, password)));
    await Promise.all(inFlight.map((exchange) => exchange.sent));
    // Only what the server accepted counts: connections still in the kernel's accept queue would be refused.
    await until(() => acceptQueueLength(port) === 0, 10_000, 'the service to accept every connection');

    const signalledAt = Date.now();
    service.child.kill('SIGTERM');
    await service.waitForLog((line) => line.msg === 'shutting down: refusing new connections, draining');
    const lateExchanges = late.map((connection) => connection.send(loginRequest(email, password)));
    assert.equal(listenerState(port), 'closed', 'the listening socket is closed');
    assert.equal(await connectOutcome(port), 'ECONNREFUSED', 'a new connection after the signal is refused');

    const responses = await Promise.all(inFlight.map((exchange) => exchange.response));
    const lateResponses = await Promise.all(lateExchanges.map((exchange) => exchange.response));
    for (const res of [...responses, ...lateResponses]) {
      assert.equal(res.status, 200, res.body);
      assert.equal(typeof JSON.parse(res.body).token, 'string');
    }
    for (const res of lateResponses) assert.equal(res.headers.connection, 'close', 'a request read during the drain closes its connection');
    const closes = await Promise.all([...busy, ...late, ...idle].map((connection) => connection.closed));
    assert.deepEqual(closes.filter((close) => close.error), [], 'no connection was reset');

    const { code, at } = await service.exited;
    assert.equal(code, 0);
    assert.ok(at - signalledAt < 10_000, `exited ${at - signalledAt} ms after SIGTERM`);
    await service.waitForLog((line) => line.msg === 'shutdown complete: connections drained, database and store closed', 1000);
  });

  it('when SIGTERM arrives under load with a grace (issue 51), then readiness is 503 at once, connections keep being accepted and served until the grace ends, none is reset, and it exits 0', async () => {
    service = await startService({ TRUST_PROXY: 'loopback', PASSWORD_PBKDF2_ITERATIONS: '60000', SHUTDOWN_GRACE_MS: '1500' });
    const { port, baseUrl } = service;
    const email = uniqueEmail('grace');
    const password = 'correct horse battery';
    const registered = await fetch(`${baseUrl}/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': randomIp() },
      body: JSON.stringify({ email, password }),
    });
    assert.equal(registered.status, 201);
    // Sixty connections opened and sent at once, the signal right behind them: some still wait in the accept queue.
    const opening = Array.from({ length: 60 }, async () => {
      const connection = await RawConnection.open(port);
      return { connection, exchange: connection.send(loginRequest(email, password)) };
    });
    service.child.kill('SIGTERM');
    const first = await Promise.all(opening);
    await service.waitForLog((line) => line.msg === 'shutting down: readiness 503, still accepting connections for the grace period');
    assert.equal(listenerState(port), 'listening', 'the listener stays open during the grace');
    // A connection made during the grace is accepted and served; readiness says the instance is leaving.
    const ready = await RawConnection.open(port);
    const readiness = await ready.send('GET /health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n').response;
    assert.equal(readiness.status, 503);
    assert.equal(readiness.headers.connection, 'close');
    const during = await RawConnection.open(port);
    const duringLogin = await during.send(loginRequest(email, password)).response;
    assert.equal(duringLogin.status, 200, duringLogin.body);
    assert.equal(duringLogin.headers.connection, 'close');

    await service.waitForLog((line) => line.msg === 'shutting down: refusing new connections, draining', 5_000);
    assert.equal(await connectOutcome(port), 'ECONNREFUSED', 'after the grace, new connections are refused');
    const responses = await Promise.all(first.map(({ exchange }) => exchange.response));
    for (const res of responses) assert.equal(res.status, 200, res.body);
    const closes = await Promise.all([...first.map(({ connection }) => connection), ready, during].map((connection) => connection.closed));
    assert.deepEqual(closes.filter((close) => close.error), [], 'no connection was reset');
    assert.equal((await service.exited).code, 0);
  });

  it('when the port is already taken, then the start fails with one line naming the problem, exit 1', async () => {
    service = await startService();
    await assert.rejects(startService({ PORT: String(service.port) }), (err: Error) => {
      assert.match(err.message, /service exited \(1\) before listening: Start failed: listen EADDRINUSE: address already in use 127\.0\.0\.1:\d+\n?$/);
      return true;
    });
  });

  it('when SIGTERM arrives on an idle service, then it exits 0 at once', async () => {
    service = await startService();
    const signalledAt = Date.now();
    service.child.kill('SIGTERM');
    const { code, at } = await service.exited;
    assert.equal(code, 0);
    assert.ok(at - signalledAt < 5_000, `exited ${at - signalledAt} ms after SIGTERM`);
  });
});
