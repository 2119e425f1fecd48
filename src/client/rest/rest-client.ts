import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import { StatusError, type StatusReason } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { delay } from '../client-support.js';
import type { NamespacedObjectClient } from '../leaderelection/object-client.js';
import type { ClientCredentials } from './credentials.js';
import type { RestConfig } from './kubeconfig.js';
import type { RateLimiter } from './rate-limiter.js';

/** What a request of a resource addresses. */
export interface ResourcePath {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly name?: string;
}

/** `/api/v1/...` or `/apis/<group>/<version>/...`. */
export function resourceUrlPath(p: ResourcePath): string {
  const prefix = p.group ? `/apis/${p.group}/${p.version}` : `/api/${p.version}`;
  const ns = p.namespace ? `/namespaces/${encodeURIComponent(p.namespace)}` : '';
  const name = p.name ? `/${encodeURIComponent(p.name)}` : '';
  return `${prefix}${ns}/${p.resource}${name}`;
}

/** The `StatusError` of a failed JSON response: its `Status` body when it has one. */
function statusErrorOf(code: number, body: string): StatusError {
  try {
    const s = JSON.parse(body) as { kind?: string; reason?: StatusReason; message?: string; details?: never };
    if (s && s.kind === 'Status') return new StatusError(code, s.reason ?? '', s.message ?? '', s.details);
  } catch {
    // Not JSON: fall through.
  }
  return new StatusError(code, '', body.trim() || `the server responded with status ${code}`);
}

/** Query parameters; undefined values are left out. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** One request. `body` is sent as JSON unless it is a string or bytes (sent as they are). */
export interface RestRequest {
  readonly method: string;
  /** Absolute path (`/api/v1/...`), without the query. */
  readonly path: string;
  readonly query?: Query;
  readonly body?: unknown;
  /** Default `application/json`. */
  readonly contentType?: string;
  /** Overrides the client's `Accept`. */
  readonly accept?: string;
}

/** A response read in full (any status). */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body as UTF-8 text. */
  readonly text: string;
  /** The body's bytes. */
  readonly body: Buffer;
}

/**
 * How response bodies are read: by their `Content-Type`. The default reads JSON only; an API
 * client that speaks Protobuf and CBOR injects the wire codecs (`client/wire/`).
 */
export interface ResponseCodec {
  /** The decoded body of a 2xx response; throws when it cannot be read. */
  decode(contentType: string | undefined, body: Buffer): unknown;
  /** The `StatusError` of a failed response (its `Status` in whatever format it came). Never throws. */
  statusError(code: number, contentType: string | undefined, body: Buffer): StatusError;
}

const JSON_CODEC: ResponseCodec = {
  decode: (_contentType, body) => JSON.parse(body.toString('utf8')),
  statusError: (code, _contentType, body) => statusErrorOf(code, body.toString('utf8')),
};

/** Options of a {@link RestClient}. */
export interface RestClientOptions {
  readonly userAgent?: string;
  /** `Accept` of requests that do not name their own. Default `application/json`. */
  readonly accept?: string;
  /** Taken before every request (watches included), as client-go's throttle. Default none. */
  readonly rateLimiter?: RateLimiter;
  /**
   * The bearer token, read before every request (a refreshed token is used from the next
   * request on); overrides the configuration's `token`.
   */
  readonly bearerToken?: () => string | undefined;
  /** Reads response bodies. Default: JSON. */
  readonly codec?: ResponseCodec;
}

/** `?a=1&b=x` from the defined members of `q` ('' when none). */
export function queryString(q: Query | undefined): string {
  if (!q) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

/**
 * A JSON client of the API over HTTPS (keep-alive), authenticated with a client certificate or a
 * bearer token. Failed requests throw the server's `Status` as a `StatusError`; unreachable
 * servers and aborted requests throw plain errors. Credentials never appear in errors.
 */
export class RestClient {
  private agent: Agent;
  /** The client certificate and key `agent` connects with. */
  private agentCert: string | undefined;
  private agentKey: string | undefined;
  private readonly base: URL;
  private readonly codec: ResponseCodec;

  constructor(
    private readonly config: RestConfig,
    private readonly options: RestClientOptions = {},
  ) {
    this.base = new URL(config.server);
    this.codec = options.codec ?? JSON_CODEC;
    this.agent = this.newAgent(config.cert, config.key);
  }

  private newAgent(cert: string | undefined, key: string | undefined): Agent {
    this.agentCert = cert;
    this.agentKey = key;
    return new Agent({
      keepAlive: true,
      ca: this.config.ca,
      cert,
      key,
      rejectUnauthorized: this.config.insecureSkipTlsVerify !== true,
      servername: this.config.tlsServerName,
    });
  }

  /**
   * The credentials of the next request; a certificate or key other than the agent's closes its
   * connections and makes a new agent (a new TLS handshake), as client-go does on rotation.
   */
  private async credentials(): Promise<ClientCredentials> {
    const source = this.config.credentials;
    if (!source) return { token: this.config.token, cert: this.config.cert, key: this.config.key };
    const c = await source.current();
    if (c.cert !== this.agentCert || c.key !== this.agentKey) {
      this.agent.destroy();
      this.agent = this.newAgent(c.cert, c.key);
    }
    return c;
  }

  /** Sends one request; resolves with the decoded JSON body of a 2xx response. */
  request<T>(method: string, path: string, body: unknown, signal: AbortSignal): Promise<T> {
    return this.call<T>({ method, path, body }, signal);
  }

  /**
   * Sends `r`; resolves with the decoded body of a 2xx response (read by its `Content-Type`
   * with the client's codec), else throws its `StatusError`. A body that cannot be read throws
   * an error naming the request.
   */
  async call<T>(r: RestRequest, signal: AbortSignal): Promise<T> {
    const res = await this.raw(r, signal);
    const contentType = res.headers['content-type'];
    if (res.status < 200 || res.status > 299) throw this.codec.statusError(res.status, contentType, res.body);
    try {
      return this.codec.decode(contentType, res.body) as T;
    } catch (e) {
      throw new Error(`${r.method} ${r.path}: ${(e as Error).message}`, { cause: e });
    }
  }

  /**
   * Sends `r` and reads the whole response, whatever its status; a 429 with `Retry-After` is
   * sent again after that many seconds, up to {@link MAX_RETRY_AFTER_RETRIES} times (client-go's rule).
   */
  async raw(r: RestRequest, signal: AbortSignal): Promise<RawResponse> {
    for (let attempt = 0; ; attempt++) {
      const res = await this.once(r, signal);
      const after = Number(res.headers['retry-after']);
      if (res.status !== 429 || !Number.isFinite(after) || attempt >= MAX_RETRY_AFTER_RETRIES) return res;
      await delay(Math.max(0, after) * 1000, signal).catch(() => {
        throw aborted(r);
      });
    }
  }

  private async once(r: RestRequest, signal: AbortSignal): Promise<RawResponse> {
    const { res } = await this.openRetrying401(r, signal);
    return new Promise<RawResponse>((resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: body.toString('utf8'), body });
      });
      res.on('error', (e) => reject(signal.aborted ? aborted(r) : e));
    });
  }

  /**
   * Sends `r` and resolves with the response of a 2xx status, its body unread (a watch stream);
   * other statuses throw their `StatusError`. Aborting `signal` ends the request and the stream.
   */
  async stream(r: RestRequest, signal: AbortSignal): Promise<IncomingMessage> {
    const { res } = await this.openRetrying401(r, signal);
    const code = res.statusCode ?? 0;
    if (code >= 200 && code <= 299) return res;
    const body = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', reject);
    });
    throw this.codec.statusError(code, res.headers['content-type'], body);
  }

  /**
   * {@link open}; with changing credentials (an exec plugin) a 401 makes the source fetch new
   * ones and the request is sent once more (its first answer dropped).
   */
  private async openRetrying401(r: RestRequest, signal: AbortSignal) {
    const first = await this.open(r, signal);
    const source = this.config.credentials;
    if (first.res.statusCode !== 401 || !source) return first;
    first.res.resume();
    await source.unauthorized(first.used).catch((e: unknown) => {
      throw new Error(`getting credentials: ${(e as Error).message}`, { cause: e });
    });
    return this.open(r, signal);
  }

  private async open(
    r: RestRequest,
    signal: AbortSignal,
  ): Promise<{ req: ClientRequest; res: IncomingMessage; used: ClientCredentials }> {
    if (signal.aborted) throw aborted(r);
    await this.options.rateLimiter?.wait(signal).catch(() => {
      throw aborted(r);
    });
    const url = new URL(`${r.path}${queryString(r.query)}`, this.base);
    const payload =
      r.body === undefined
        ? undefined
        : typeof r.body === 'string' || r.body instanceof Uint8Array
          ? r.body
          : JSON.stringify(r.body);
    const headers: Record<string, string> = { accept: r.accept ?? this.options.accept ?? 'application/json' };
    if (payload !== undefined) {
      headers['content-type'] = r.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const used = await this.credentials().catch((e: unknown) => {
      throw new Error(`getting credentials: ${(e as Error).message}`, { cause: e });
    });
    const token = this.options.bearerToken?.() ?? used.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (this.options.userAgent) headers['user-agent'] = this.options.userAgent;
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(aborted(r));
      const req = request(url, { method: r.method, headers, agent: this.agent }, (res) => {
        resolve({ req, res, used });
      });
      const onAbort = () => req.destroy(aborted(r));
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => signal.removeEventListener('abort', onAbort));
      req.on('error', (e) => reject(signal.aborted ? aborted(r) : e));
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}

/** client-go's `maxRetries` for 429 responses with `Retry-After`. */
export const MAX_RETRY_AFTER_RETRIES = 10;

function aborted(r: RestRequest): Error {
  return new Error(`${r.method} ${r.path}: aborted`);
}

/** get, create and update of one resource in one namespace, over HTTP. */
export function restObjectClient<T extends ApiObject>(
  rest: RestClient,
  resource: Omit<ResourcePath, 'name'> & { readonly namespace: string },
): NamespacedObjectClient<T> {
  const at = (name?: string) => resourceUrlPath({ ...resource, name });
  return {
    namespace: resource.namespace,
    get: (name, signal) => rest.request<T>('GET', at(name), undefined, signal),
    create: (obj, signal) => rest.request<T>('POST', at(), obj, signal),
    update: (obj, signal) => rest.request<T>('PUT', at(obj.metadata.name ?? ''), obj, signal),
  };
}
