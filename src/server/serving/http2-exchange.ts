import { constants, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import type { PeerCertificate, RequestHeaders } from '../../authn/authenticator.js';
import { declaredLength, readBodyLimited } from './body-reader.js';
import type { HttpExchange, ResponseHeaders, ResponseStream } from './exchange.js';
import { ExchangeLifecycle } from './exchange-lifecycle.js';
import { byteLength, copyHeaders, isBodylessStatus, type ServingContext } from './serving-context.js';

const { NGHTTP2_NO_ERROR } = constants;
const kExchange = Symbol('orch.http2Exchange');

type TaggedStream = ServerHttp2Stream & { [kExchange]?: Http2Exchange };

function onStreamClose(this: TaggedStream): void {
  this[kExchange]?.handleClose();
}

// Without an 'error' listener, a stream error (e.g. a peer RST with PROTOCOL_ERROR) would crash the process.
function onStreamError(this: TaggedStream, err: Error): void {
  this[kExchange]?.logStreamError(err);
}

/** Connection-specific headers are illegal in HTTP/2 (RFC 9113 §8.2.2); node throws on them. */
function isHopByHop(name: string): boolean {
  switch (name) {
    case 'connection':
    case 'keep-alive':
    case 'proxy-connection':
    case 'transfer-encoding':
    case 'upgrade':
      return true;
    default:
      return false;
  }
}

/** An HTTP/2 stream from the session-level `stream` event (not the compatibility API). */
export class Http2Exchange extends ExchangeLifecycle implements HttpExchange, ResponseStream {
  readonly protocol = 'h2' as const;
  readonly method: string;
  readonly url: string;
  readonly headers: RequestHeaders;

  constructor(
    private readonly h2stream: ServerHttp2Stream,
    headers: IncomingHttpHeaders,
    private readonly rawHeaders: readonly string[],
    ctx: ServingContext,
  ) {
    super(ctx);
    this.method = headers[':method'] ?? 'GET';
    this.url = headers[':path'] ?? '/';
    this.headers = headers;
    (h2stream as TaggedStream)[kExchange] = this;
    h2stream.on('close', onStreamClose);
    h2stream.on('error', onStreamError);
  }

  get peerCertificate(): PeerCertificate | undefined {
    const session = this.h2stream.session;
    if (!session) return undefined;
    return this.ctx.certificates.get(session, session.socket as TLSSocket);
  }

  get remoteAddress(): string | undefined {
    return this.h2stream.session?.socket.remoteAddress;
  }

  get connection(): object | undefined {
    return this.h2stream.session;
  }

  get body(): Readable {
    return this.h2stream;
  }

  headerValues(name: string): string[] {
    const wanted = name.toLowerCase();
    const raw = this.rawHeaders;
    const out: string[] = [];
    for (let i = 0; i < raw.length; i += 2) if (raw[i] === wanted) out.push(raw[i + 1]);
    return out;
  }

  readBody(limitBytes: number): Promise<Buffer> {
    const s = this.h2stream;
    return readBodyLimited(s, limitBytes, declaredLength(this.headers['content-length']), s.endAfterHeaders, () => {});
  }

  respond(status: number, headers: ResponseHeaders, body?: Uint8Array | string): void {
    this.begin();
    const s = this.h2stream;
    if (this.isClosed || s.destroyed || s.closed) return;
    const out = this.outgoing(status, headers);
    const bodyless = isBodylessStatus(status);
    if (!bodyless && headers['content-length'] === undefined) {
      out['content-length'] = body === undefined ? 0 : byteLength(body);
    }
    if (body === undefined || bodyless || this.method === 'HEAD' || byteLength(body) === 0) {
      s.respond(out, { endStream: true });
    } else {
      s.respond(out);
      s.end(body);
    }
    this.stopUnreadBody();
  }

  stream(status: number, headers: ResponseHeaders): ResponseStream {
    this.begin();
    const s = this.h2stream;
    if (this.isClosed || s.destroyed || s.closed) return this;
    s.respond(this.outgoing(status, headers));
    return this;
  }

  write(chunk: Uint8Array | string): boolean {
    const s = this.h2stream;
    if (this.isClosed || s.destroyed || s.writableEnded) return true;
    return s.write(chunk);
  }

  drain(): Promise<void> {
    const s = this.h2stream;
    if (this.isClosed || !s.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        s.off('drain', done);
        s.off('close', done);
        resolve();
      };
      s.on('drain', done);
      s.on('close', done);
    });
  }

  end(chunk?: Uint8Array | string): void {
    const s = this.h2stream;
    if (this.isClosed || s.destroyed || s.writableEnded) return;
    if (chunk === undefined) s.end();
    else s.end(chunk);
    this.stopUnreadBody();
  }

  abort(): void {
    // Not `close(INTERNAL_ERROR)`: with the writable side open, node first ends it (END_STREAM) and the client
    // may see a clean end before the RST_STREAM. Destroying with an error sends only RST_STREAM(INTERNAL_ERROR).
    if (!this.isClosed && !this.h2stream.destroyed) this.h2stream.destroy(new Error('response aborted by the server'));
  }

  /** @internal Runs once, from the stream's 'close' event. */
  handleClose(): void {
    const s = this.h2stream;
    // A stream reset by the peer (CANCEL) or torn down with its session never finishes its writable side.
    if (!this.markClosed(!s.writableFinished || (s.rstCode !== undefined && s.rstCode !== NGHTTP2_NO_ERROR))) return;
    (s as TaggedStream)[kExchange] = undefined;
    this.ctx.exchangeClosed();
  }

  /** @internal */
  logStreamError(err: Error): void {
    this.ctx.logger.debug?.('http2 stream error', { method: this.method, url: this.url, error: err.message });
  }

  private outgoing(status: number, headers: ResponseHeaders): OutgoingHttpHeaders {
    const out = copyHeaders(headers, isHopByHop);
    out[':status'] = status;
    return out;
  }

  /**
   * After a complete response, a client still sending a body it will never have read is told to stop with
   * RST_STREAM(NO_ERROR) (RFC 9113 §8.1); node sends it once the response data is flushed.
   */
  private stopUnreadBody(): void {
    const s = this.h2stream;
    if (!s.endAfterHeaders && !s.readableEnded) s.close(NGHTTP2_NO_ERROR);
  }
}
