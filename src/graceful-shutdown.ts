import net from 'node:net';
import type http from 'node:http';
import type { Logger } from 'pino';

export interface GracefulShutdownOptions {
  logger: Logger;
  /** Closes the database and the store once no connection is left. */
  closeResources: () => Promise<void>;
  /** Whatever happens, the process is gone this long after the signal. */
  deadlineMs?: number;
  /**
   * An accepted connection with no request in progress is kept this long after the signal, so a request
   * it already carries (sent, but not yet read by a busy event loop) is still answered.
   */
  idleGraceMs?: number;
  /**
   * After the signal the service keeps accepting and serving connections this long (each answer with
   * `Connection: close`) while readiness answers 503, so a load balancer stops sending before the listener
   * closes: a connection it sent meanwhile is never reset in the kernel's accept queue (SHUTDOWN_GRACE_MS).
   */
  graceMs?: number;
  /** Called at the signal: readiness answers 503 from then on. */
  onDrain?: () => void;
  exit?: (code: number) => void;
}

interface ConnectionState {
  /** Responses of this connection that have not finished. */
  inFlight: Set<http.ServerResponse>;
  /** socket.bytesRead when its last response finished: more since then means a request is arriving. */
  bytesReadAtIdle: number;
}

const DEFAULTS = { deadlineMs: 9_000, idleGraceMs: 2_000, graceMs: 0 };

/**
 * Tracks the server's connections and, on `shutdown()`, drains them:
 * - readiness answers 503 at once (`onDrain`), and for `graceMs` connections are still accepted and served,
 *   each response saying `Connection: close`: load balancers take the instance out of rotation meanwhile;
 * - then the listening socket closes, so new connections are refused;
 * - every request in flight completes, and its response (unless its headers were already sent) says
 *   `Connection: close`;
 * - a connection with nothing in flight is closed only after `idleGraceMs` and only if no request bytes
 *   arrived on it meanwhile. (Node's own `server.close()` closes "idle" connections at once, and a
 *   connection whose request the event loop has not read yet counts as idle: its client got a reset.)
 * - when the last connection is gone, the database and store close and the process exits 0; at the
 *   deadline (counted from the end of the grace) it exits 1 whatever is left.
 */
export function trackForGracefulShutdown(server: http.Server, options: GracefulShutdownOptions) {
  const { logger, closeResources } = options;
  const deadlineMs = options.deadlineMs ?? DEFAULTS.deadlineMs;
  const idleGraceMs = options.idleGraceMs ?? DEFAULTS.idleGraceMs;
  const graceMs = options.graceMs ?? DEFAULTS.graceMs;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const connections = new Map<net.Socket, ConnectionState>();
  let draining = false;
  let finishing = false;

  // Prepended: the state must exist before the app's own listener can answer (and finish) a request.
  server.prependListener('connection', (socket: net.Socket) => {
    connections.set(socket, { inFlight: new Set(), bytesReadAtIdle: 0 });
    socket.once('close', () => {
      connections.delete(socket);
      if (draining) maybeFinish();
    });
  });

  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    // Kept from the start: by the time a response closes, Node may have detached it (req.socket is then null).
    const socket = req.socket;
    const state = connections.get(socket);
    if (!state) return;
    state.inFlight.add(res);
    if (draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      state.inFlight.delete(res);
      state.bytesReadAtIdle = socket.bytesRead;
    });
  });

  /** Whether the listener is still open (the grace): the process stays until it has closed. */
  const listening = () => server.listening;

  function isIdle(socket: net.Socket, state: ConnectionState): boolean {
    return state.inFlight.size === 0 && socket.bytesRead === state.bytesReadAtIdle;
  }

  /** Ends connections that stayed idle through the grace period; busy ones end after their response. */
  function closeIdle(): void {
    for (const [socket, state] of connections) {
      if (isIdle(socket, state)) socket.end();
    }
    // A connection that was busy, or received bytes, during the grace gets `Connection: close` on its
    // response; one that went quiet again without a response (a half-sent request) is checked once more.
    if (connections.size > 0) scheduleCloseIdle();
  }

  /** Timer, then an immediate: the poll phase between them reads whatever the sockets already carry. */
  function scheduleCloseIdle(): void {
    setTimeout(() => setImmediate(closeIdle), idleGraceMs).unref();
  }

  function maybeFinish(): void {
    if (finishing || listening() || connections.size > 0) return;
    finishing = true;
    void closeResources().then(
      () => {
        logger.info('shutdown complete: connections drained, database and store closed');
        exit(0);
      },
      (err: unknown) => {
        logger.error({ err: (err as Error).message }, 'shutdown: closing the database or store failed');
        exit(1);
      },
    );
  }

  /** The end of the grace: no new connections; what is connected drains. */
  function closeListener(): void {
    // Only the listening socket: http.Server#close would also drop connections whose request is unread.
    // Closed before the log line, so whoever reads the line knows new connections are refused.
    net.Server.prototype.close.call(server);
    logger.info({ connections: connections.size }, 'shutting down: refusing new connections, draining');
    setTimeout(() => {
      logger.error({ connections: connections.size }, 'shutdown deadline reached: closing what is left');
      for (const socket of connections.keys()) socket.destroy();
      exit(1);
    }, deadlineMs).unref();
    scheduleCloseIdle();
    maybeFinish();
  }

  function shutdown(signal: string): void {
    if (draining) return;
    draining = true;
    options.onDrain?.();
    // Requests read before the signal: their connection closes after their response too.
    for (const { inFlight } of connections.values()) {
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    if (graceMs === 0) {
      logger.info({ signal }, 'shutting down');
      closeListener();
      return;
    }
    logger.info({ signal, graceMs }, 'shutting down: readiness 503, still accepting connections for the grace period');
    setTimeout(closeListener, graceMs);
  }

  return { shutdown };
}
