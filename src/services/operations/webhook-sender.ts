import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { publicOnlyConnection } from '../../http/outbound-url';

/**
 * Connections to receivers are kept open between deliveries: a busy outbox sends many events to the same few
 * endpoints, and a TLS handshake per event would cost more than the event. A kept socket was judged public when
 * it connected (the lookup below runs per new connection), so reusing it dials nothing new. maxFreeSockets is as
 * high as maxSockets: a round of deliveries ends with every socket idle at once, and closing most of them then
 * would mean a handshake each in the next round.
 */
const AGENT_OPTIONS = { keepAlive: true, maxSockets: 32, maxFreeSockets: 32, timeout: 60_000 };
const agents = { 'http:': new http.Agent(AGENT_OPTIONS), 'https:': new https.Agent(AGENT_OPTIONS) };

/** What the receiver answered, or why nothing came back. */
export type SendResult = { status: number } | { status: null; error: string };

export interface SignedRequest {
  url: string;
  /** The `webhook-id`, the same on every retry of one delivery. */
  id: string;
  body: string;
  /** Secrets that sign (`whsec_…`): the current one, and the previous one during a rotation. */
  secrets: string[];
}

const SECRET_PREFIX = 'whsec_';

/**
 * The Standard Webhooks headers: `webhook-signature` holds one `v1,<base64>` per secret, space-separated,
 * so a receiver holding either secret during a rotation verifies. The spec's HMAC-SHA256 of `id.timestamp.body`
 * under the secret's base64 bytes, computed by node:crypto: the spec's own library hashes in JavaScript, which at
 * a thousand deliveries a second took a visible share of the worker's one event loop (receivers verify with it).
 */
export function signatureHeaders(request: Pick<SignedRequest, 'id' | 'body' | 'secrets'>, at: Date): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signed = `${request.id}.${timestamp}.${request.body}`;
  const signature = request.secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
      return `v1,${crypto.createHmac('sha256', key).update(signed).digest('base64')}`;
    })
    .join(' ');
  return { 'webhook-id': request.id, 'webhook-timestamp': timestamp, 'webhook-signature': signature };
}

/**
 * POSTs one signed delivery. The whole exchange must end within `timeoutMs` (CONTRACT 16: 10 s); a redirect is
 * an answer like any other (never followed, so a receiver cannot bounce the request inward); unless
 * `allowPrivate`, the address actually dialled must be public (judged at connect time, whatever the URL was
 * when it was saved). The answer's body is drained, never read into the result.
 */
export function sendSigned(request: SignedRequest, options: { timeoutMs: number; allowPrivate: boolean }): Promise<SendResult> {
  return new Promise((resolve) => {
    let url: URL;
    let connection: object;
    try {
      url = new URL(request.url);
      connection = options.allowPrivate ? {} : publicOnlyConnection(url);
    } catch (err) {
      resolve({ status: null, error: (err as Error).name === 'OutboundAddressError' ? 'address not public' : 'invalid URL' });
      return;
    }
    const headers = {
      ...signatureHeaders(request, new Date()),
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(request.body)),
      'User-Agent': 'auth-service-webhooks/1',
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      { ...urlToHttpOptions(url), ...connection, agent: agents[url.protocol as keyof typeof agents], method: 'POST', headers, signal: AbortSignal.timeout(options.timeoutMs) },
      (res) => {
        res.on('error', () => resolve({ status: null, error: 'answer cut off' }));
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        // After 'end' this changes nothing; without it (the timeout cut the body), the attempt failed.
        res.on('close', () => resolve({ status: null, error: `no complete answer within ${options.timeoutMs} ms` }));
        res.resume();
      },
    );
    req.on('error', (err: Error & { code?: string }) => {
      const reason = err.name === 'AbortError' || err.name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : err.name === 'OutboundAddressError' ? 'address not public' : `connection failed${err.code ? ` (${err.code})` : ''}`;
      resolve({ status: null, error: reason });
    });
    req.end(request.body);
  });
}
