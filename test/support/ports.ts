import net from 'node:net';

/** A loopback port nothing listens on (taken from the kernel, then released): for "the service is down" cases. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function bindable(port: number): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free loopback port whose partner `port + offset` is free too, both below Linux's ephemeral range (32768…),
 * so no outgoing connection of the suite can be holding either. A Redis Cluster node listens on its port and
 * on port + 10000 (the cluster bus); a kernel-chosen port (closedPort) can leave that partner above 65535 or
 * taken by a client socket, and the node then exits at start.
 */
export async function closedPortPair(offset: number): Promise<number> {
  const low = 20_000;
  const span = 32_768 - offset - low;
  for (let tries = 0; tries < 200; tries++) {
    const port = low + Math.floor(Math.random() * span);
    if ((await bindable(port)) && (await bindable(port + offset))) return port;
  }
  throw new Error(`no free port pair (+${offset}) below 32768`);
}
