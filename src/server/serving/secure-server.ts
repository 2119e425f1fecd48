import { constants as cryptoConstants } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createSecureServer,
  type Http2SecureServer,
  type IncomingHttpHeaders,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import type { Socket } from 'node:net';
import { apiErrors } from '../../apis/meta/status.js';
import { silentLogger } from '../../util/logger.js';
import { ServerStartError } from './errors.js';
import type { HttpExchange } from './exchange.js';
import { Http1Exchange } from './http1-exchange.js';
import { Http2Exchange } from './http2-exchange.js';
import { PeerCertificateCache } from './peer-certificate.js';
import type { ServingContext, ServingLogger } from './serving-context.js';
import { TurnEndWrites } from './turn-end-writes.js';

/** Serves one exchange. It must call `respond` or `stream` exactly once; a rejection becomes a 500 here as a last resort. */
export type ExchangeHandler = (exchange: HttpExchange) => Promise<void> | void;

export interface TlsMaterial {
  /** Serving certificate (chain) PEM. */
  readonly cert: string;
  /** Serving private key PEM. */
  readonly key: string;
  /** PEM bundle of CAs trusted for client certificates; without it no client certificate verifies. */
  readonly ca?: string;
}

export interface SecureServerOptions {
  /** Listen address; use 127.0.0.1 in tests. */
  readonly host: string;
  /** 0 picks a free port (see `SecureServer.port`). */
  readonly port: number;
  readonly tls: TlsMaterial;
  readonly handler: ExchangeHandler;
  readonly logger?: ServingLogger;
  /** Aborting it starts `close()` with the default drain timeout. */
  readonly signal?: AbortSignal;
  /** SETTINGS_MAX_CONCURRENT_STREAMS advertised to HTTP/2 clients; default 1000 (kube-apiserver's default). */
  readonly http2MaxStreamsPerConnection?: number;
  /** Idle time after which an HTTP/1.1 keep-alive connection is closed; default 60 s. */
  readonly keepAliveTimeoutMs?: number;
}

export interface CloseOptions {
  /** Longest wait for in-flight exchanges before connections are destroyed; default 60 s. */
  readonly drainTimeoutMs?: number;
}

/** A listening HTTPS server (HTTP/2 and HTTP/1.1 on one port, chosen by ALPN). */
export interface SecureServer {
  readonly host: string;
  /** The bound port (the real one when 0 was asked for). */
  readonly port: number;
  /** `https://host:port`, IPv6 hosts bracketed. */
  readonly url: string;
  /** Exchanges whose response has not completed. */
  readonly inFlight: number;
  /** Aborted when `close()` begins, so long-running responses (watches) can end themselves early. */
  readonly shuttingDown: AbortSignal;
  /** Replaces the TLS material for new connections; existing connections keep theirs. */
  updateTls(tls: TlsMaterial): void;
  /**
   * Graceful shutdown: stops accepting connections, sends GOAWAY to HTTP/2 sessions, closes idle HTTP/1.1
   * connections and marks later HTTP/1.1 responses `Connection: close`; waits until in-flight exchanges
   * finish or `drainTimeoutMs` passes, then destroys whatever connections remain. Idempotent: later calls
   * return the same promise.
   */
  close(options?: CloseOptions): Promise<void>;
}

const DEFAULT_DRAIN_TIMEOUT_MS = 60_000;

/** Members node has (with `allowHTTP1`) that @types/node 20 does not declare. */
type HybridServer = Http2SecureServer & { closeIdleConnections(): void; keepAliveTimeout: number };

function tlsOptions(tls: TlsMaterial) {
  return {
    cert: tls.cert,
    key: tls.key,
    ca: tls.ca,
    // Anonymous requests are allowed: the TLS layer records its verdict in `socket.authorized` and the
    // x509 authenticator decides.
    requestCert: true,
    rejectUnauthorized: false,
    minVersion: 'TLSv1.2' as const,
    // The peer certificate is cached per connection, so it must not change under renegotiation.
    secureOptions: cryptoConstants.SSL_OP_NO_RENEGOTIATION,
  };
}

class SecureServerImpl implements SecureServer, ServingContext {
  draining = false;
  inFlight = 0;
  readonly certificates = new PeerCertificateCache();
  readonly logger: ServingLogger;
  private readonly turnEndWrites: TurnEndWrites;
  private readonly shutdown = new AbortController();
  private readonly sockets = new Set<Socket>();
  private readonly sessions = new Set<ServerHttp2Session>();
  private idleWaiter: (() => void) | undefined;
  private closing: Promise<void> | undefined;
  host = '';
  port = 0;

  constructor(
    private readonly server: HybridServer,
    private readonly handler: ExchangeHandler,
    logger: ServingLogger | undefined,
  ) {
    this.logger = logger ?? silentLogger;
    this.turnEndWrites = new TurnEndWrites((e) =>
      this.logger.debug?.('response end failed', { error: e instanceof Error ? e.message : String(e) }),
    );
    const sockets = this.sockets;
    const sessions = this.sessions;
    const untrackSocket = function (this: Socket): void {
      sockets.delete(this);
    };
    const untrackSession = function (this: ServerHttp2Session): void {
      sessions.delete(this);
    };
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', untrackSocket);
    });
    server.on('session', (session: ServerHttp2Session) => {
      sessions.add(session);
      session.on('close', untrackSession);
      if (this.draining) session.close();
    });
    server.on('stream', (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, _flags: number, raw: string[]) => {
      this.dispatch(new Http2Exchange(stream, headers, raw, this));
    });
    server.on('request', (req: IncomingMessage | unknown, res: ServerResponse | unknown) => {
      this.dispatch(new Http1Exchange(req as IncomingMessage, res as ServerResponse, this));
    });
    server.on('sessionError', (err: Error) => this.logger.debug?.('http2 session error', { error: err.message }));
    server.on('tlsClientError', (err: Error) => this.logger.debug?.('TLS handshake failed', { error: err.message }));
  }

  get url(): string {
    return `https://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.port}`;
  }

  get shuttingDown(): AbortSignal {
    return this.shutdown.signal;
  }

  updateTls(tls: TlsMaterial): void {
    this.server.setSecureContext(tlsOptions(tls));
  }

  endAfterTurn(res: ServerResponse, body?: Uint8Array | string): void {
    this.turnEndWrites.end(res, body);
  }

  exchangeClosed(): void {
    this.inFlight--;
    if (this.draining) {
      // A finished keep-alive connection becomes idle; it would otherwise linger until the drain deadline.
      this.server.closeIdleConnections();
      if (this.inFlight === 0) this.idleWaiter?.();
    }
  }

  /** Not async: a handler that answers at once costs no promise here. */
  private dispatch(exchange: Http1Exchange | Http2Exchange): void {
    this.inFlight++;
    let served: Promise<void> | void;
    try {
      served = this.handler(exchange);
    } catch (err) {
      this.handlerFailed(exchange, err);
      return;
    }
    if (served instanceof Promise) {
      served.then(
        () => this.handlerDone(exchange),
        (err: unknown) => this.handlerFailed(exchange, err),
      );
    } else {
      this.handlerDone(exchange);
    }
  }

  private handlerDone(exchange: Http1Exchange | Http2Exchange): void {
    if (!exchange.responded) {
      this.handlerFailed(exchange, new Error('handler completed without responding'));
    }
  }

  private handlerFailed(exchange: Http1Exchange | Http2Exchange, err: unknown): void {
    this.logger.error('request handler failed', {
      method: exchange.method,
      url: exchange.url,
      error: err instanceof Error ? err.stack : String(err),
    });
    try {
      if (!exchange.responded) {
        const body = JSON.stringify(apiErrors.internal(err).toStatus());
        exchange.respond(500, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' }, body);
      } else if (!exchange.closed) {
        // Headers are out: the only honest signal left is an abnormal end.
        exchange.abort();
      }
    } catch (second) {
      this.logger.error('could not answer 500', { error: String(second) });
    }
  }

  close(options: CloseOptions = {}): Promise<void> {
    this.closing ??= this.drain(options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
    return this.closing;
  }

  private async drain(drainTimeoutMs: number): Promise<void> {
    this.draining = true;
    this.shutdown.abort();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    for (const session of this.sessions) session.close();
    let drained = this.inFlight === 0;
    if (!drained) {
      let timer: NodeJS.Timeout | undefined;
      drained = await new Promise<boolean>((resolve) => {
        this.idleWaiter = () => resolve(true);
        timer = setTimeout(() => resolve(false), drainTimeoutMs);
      });
      clearTimeout(timer);
      this.idleWaiter = undefined;
    }
    if (drained) {
      // Connections that finished their last response close on their own within a round trip.
      this.server.closeIdleConnections();
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 200).unref())]);
    }
    // Whatever is still open is stuck (a watch that ignored shuttingDown, a half-sent request) and is cut.
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  async listen(host: string, port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error): void => {
        reject(new ServerStartError(`cannot listen on ${host}:${port}: ${err.message}`, { cause: err }));
      };
      this.server.once('error', onError);
      this.server.listen({ host, port }, () => {
        this.server.off('error', onError);
        resolve();
      });
    });
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new ServerStartError('server has no TCP address');
    this.host = host;
    this.port = address.port;
    this.server.on('error', (err) => this.logger.error('server error', { error: err.message }));
  }
}

/**
 * Starts an HTTPS server on `host:port` serving HTTP/2 (ALPN `h2`) and HTTP/1.1 (`http/1.1`, or no ALPN) on
 * the same port, and calls `handler` once per request with a transport-neutral exchange. Client certificates
 * are requested but not required. Resolves once listening.
 * @throws ServerStartError when the address cannot be bound.
 */
export async function startSecureServer(options: SecureServerOptions): Promise<SecureServer> {
  options.signal?.throwIfAborted();
  const server = createSecureServer({
    ...tlsOptions(options.tls),
    allowHTTP1: true,
    noDelay: true,
    settings: { maxConcurrentStreams: options.http2MaxStreamsPerConnection ?? 1000 },
  } as Parameters<typeof createSecureServer>[0]) as HybridServer;
  // Why: adding a 'request' listener to an HTTP/2 server makes node route HTTP/2 streams through the slower
  // compatibility API as well (a 'newListener' hook installs it). We want 'request' only for HTTP/1.1 and the
  // plain 'stream' API for HTTP/2, so the hook is removed before our listeners are added.
  server.removeAllListeners('newListener');
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 60_000;
  const impl = new SecureServerImpl(server, options.handler, options.logger);
  await impl.listen(options.host, options.port);
  options.signal?.addEventListener('abort', () => void impl.close(), { once: true });
  return impl;
}
