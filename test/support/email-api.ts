import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stand-in email API received. */
export interface EmailApiCall {
  authorization: string | undefined;
  contentType: string | undefined;
  body: Record<string, unknown>;
}

export interface EmailApiStandIn {
  /** The URL to configure as the email plugin's `apiUrl`. */
  url: string;
  /** The port it listens on (127.0.0.1). */
  port: number;
  calls: EmailApiCall[];
  /** The status every later call is answered with (the body always echoes "provider body"). */
  setStatus(status: number): void;
  stop(): Promise<void>;
}

/** A real loopback HTTP email API that records each call and answers with the given status. */
export async function startEmailApi(status = 202): Promise<EmailApiStandIn> {
  const calls: EmailApiCall[] = [];
  let answer = status;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      calls.push({ authorization: req.headers.authorization, contentType: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(answer, { 'Content-Type': 'application/json' }).end(JSON.stringify({ echo: 'provider body' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/send`,
    port,
    calls,
    setStatus: (s) => (answer = s),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
