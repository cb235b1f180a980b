import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP proxy a test puts between the service and a server (MariaDB), to take the link away
 * and give it back: `cut()` resets every open connection and every new one, `restore()` forwards again.
 */
export class TcpProxy {
  private readonly server: net.Server;
  private readonly pairs = new Set<net.Socket>();
  private forwarding = true;
  port = 0;

  constructor(
    private readonly upstreamHost: string,
    private readonly upstreamPort: number,
  ) {
    this.server = net.createServer((client) => this.accept(client));
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The link is gone: open connections are reset, new ones are reset as soon as they arrive. */
  cut(): void {
    this.forwarding = false;
    for (const socket of this.pairs) socket.resetAndDestroy();
    this.pairs.clear();
  }

  restore(): void {
    this.forwarding = true;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (!this.forwarding) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(this.upstreamPort, this.upstreamHost);
    for (const [socket, peer] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.pairs.add(socket);
      socket.on('error', () => peer.destroy());
      socket.on('close', () => {
        this.pairs.delete(socket);
        peer.destroy();
      });
      socket.pipe(peer);
    }
  }
}
