import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import type { PeerCertificate, RequestHeaders } from '../../authn/authenticator.js';
import { declaredLength, readBodyLimited } from './body-reader.js';
import type { HttpExchange, ResponseHeaders, ResponseStream } from './exchange.js';
import { ExchangeLifecycle } from './exchange-lifecycle.js';
import { byteLength, copyHeaders, isBodylessStatus, type ServingContext } from './serving-context.js';

const kExchange = Symbol('orch.http1Exchange');

type TaggedResponse = ServerResponse & { [kExchange]?: Http1Exchange };

// Shared listener (no closure per request): the exchange is found through a symbol on the response.
function onResponseClose(this: TaggedResponse): void {
  this[kExchange]?.handleClose();
}

/** An HTTP/1.1 request/response pair from the `request` event. */
export class Http1Exchange extends ExchangeLifecycle implements HttpExchange, ResponseStream {
  readonly protocol = 'http/1.1' as const;
  readonly method: string;
  readonly url: string;
  readonly headers: RequestHeaders;
  private closeConnection = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    ctx: ServingContext,
  ) {
    super(ctx);
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.headers = req.headers;
    (res as TaggedResponse)[kExchange] = this;
    res.on('close', onResponseClose);
  }

  get peerCertificate(): PeerCertificate | undefined {
    const socket = this.req.socket as TLSSocket;
    return this.ctx.certificates.get(socket, socket);
  }

  get remoteAddress(): string | undefined {
    return this.req.socket.remoteAddress;
  }

  get connection(): object {
    return this.req.socket;
  }

  get body(): Readable {
    return this.req;
  }

  headerValues(name: string): string[] {
    const wanted = name.toLowerCase();
    const raw = this.req.rawHeaders;
    const out: string[] = [];
    for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === wanted) out.push(raw[i + 1]);
    return out;
  }

  readBody(limitBytes: number): Promise<Buffer> {
    const h = this.req.headers;
    // Without Content-Length or Transfer-Encoding an HTTP/1.1 request has no body (RFC 9112 §6.3).
    const knownEmpty = h['content-length'] === undefined && h['transfer-encoding'] === undefined;
    return readBodyLimited(this.req, limitBytes, declaredLength(h['content-length']), knownEmpty, () => {
      // The unread rest of the body would otherwise be parsed as the next request.
      this.closeConnection = true;
    });
  }

  respond(status: number, headers: ResponseHeaders, body?: Uint8Array | string): void {
    this.begin();
    if (this.isClosed) return;
    const bodyless = isBodylessStatus(status);
    let out = headers as OutgoingHttpHeaders;
    const mustClose = this.closeConnection || this.ctx.draining;
    if (mustClose || (!bodyless && headers['content-length'] === undefined)) {
      out = copyHeaders(headers);
      if (!bodyless) out['content-length'] = body === undefined ? 0 : byteLength(body);
      if (mustClose) out.connection = 'close';
    }
    this.res.writeHead(status, out);
    // Written with the other responses completed in this turn (see TurnEndWrites).
    this.ctx.endAfterTurn(this.res, body === undefined || bodyless || this.method === 'HEAD' ? undefined : body);
  }

  stream(status: number, headers: ResponseHeaders): ResponseStream {
    this.begin();
    if (this.isClosed) return this;
    let out = headers as OutgoingHttpHeaders;
    if (this.closeConnection || this.ctx.draining) {
      out = copyHeaders(headers);
      out.connection = 'close';
    }
    this.res.writeHead(status, out);
    this.res.flushHeaders();
    return this;
  }

  write(chunk: Uint8Array | string): boolean {
    if (this.isClosed) return true;
    return this.res.write(chunk);
  }

  drain(): Promise<void> {
    const res = this.res;
    if (this.isClosed || !res.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }

  end(chunk?: Uint8Array | string): void {
    if (this.isClosed) return;
    if (chunk === undefined) this.res.end();
    else this.res.end(chunk);
  }

  abort(): void {
    if (!this.isClosed) this.res.destroy();
  }

  /** @internal Runs once, from the response's 'close' event. */
  handleClose(): void {
    if (!this.markClosed(!this.res.writableFinished)) return;
    (this.res as TaggedResponse)[kExchange] = undefined;
    this.ctx.exchangeClosed();
  }
}
