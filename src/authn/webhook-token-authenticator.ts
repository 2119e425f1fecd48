import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import type { ApiDomain } from '../apis/api-domain.js';
import type { Logger } from '../util/logger.js';
import type { UserInfo } from './authenticator.js';
import { TOKEN_NO_OPINION, type TokenAuthenticator, type TokenAuthResult } from './token-authenticator.js';
import type { WebhookClientConfig } from './webhook-client-config.js';

export type TokenReviewVersion = 'v1' | 'v1beta1';

/** kube's `wait.Backoff` for webhook calls. */
export interface WebhookRetryBackoff {
  readonly durationMs: number;
  readonly factor: number;
  readonly jitter: number;
  /** Attempts at most. */
  readonly steps: number;
}

/** kube-apiserver's default backoff for the authentication webhook: 500 ms ×1.5, jitter 0.2, 5 attempts. */
export const DEFAULT_WEBHOOK_RETRY_BACKOFF: WebhookRetryBackoff = Object.freeze({
  durationMs: 500,
  factor: 1.5,
  jitter: 0.2,
  steps: 5,
});

/** kube-apiserver's timeout of one webhook call (the client configuration cannot set one). */
const REQUEST_TIMEOUT_MS = 30_000;
const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

export interface WebhookTokenOptions {
  readonly config: WebhookClientConfig;
  readonly version: TokenReviewVersion;
  readonly domain: ApiDomain;
  /** The server's own audiences: a review answered without `status.audiences` is valid for these. */
  readonly implicitAudiences: readonly string[];
  readonly logger?: Logger;
  readonly retryBackoff?: WebhookRetryBackoff;
  /** Random source for jitter (tests); default Math.random. */
  readonly random?: () => number;
}

/** A call outcome: the parsed body of a 2xx answer, or an error and whether kube would retry it. */
type CallResult =
  | { readonly ok: true; readonly body: unknown }
  | { readonly ok: false; readonly message: string; readonly retry: boolean };

/** kube's `NewGenericServerResponse` texts, for answers that are not a Status. */
function statusMessage(code: number, body: string): string {
  switch (code) {
    case 400:
      return 'the server rejected our request for an unknown reason';
    case 401:
      return 'the server has asked for the client to provide credentials';
    case 403:
      return 'the server does not allow access to the requested resource';
    case 404:
      return 'the server could not find the requested resource';
    case 429:
      return 'the server has received too many requests and has asked us to try again later';
    case 503:
      return 'the server is currently unable to handle the request';
    case 504:
      return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    default:
      return `an error on the server (${JSON.stringify(body.slice(0, 256))}) has prevented the request from succeeding`;
  }
}

/** Transport errors kube retries: a reset or lost connection (not refused, not a TLS failure). */
function retriableTransportError(e: NodeJS.ErrnoException): boolean {
  return (
    e.code === 'ECONNRESET' ||
    e.code === 'EPIPE' ||
    e.code === 'ERR_HTTP2_SESSION_ERROR' ||
    e.message === 'socket hang up'
  );
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A message with the token cut out, in case the webhook echoed it (too short a token would cut words). */
function redact(message: string, token: string): string {
  return token.length >= 8 ? message.replaceAll(token, '[redacted]') : message;
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

/**
 * Authenticates bearer tokens by POSTing a TokenReview (`spec.token`, `spec.audiences`) to a remote
 * service (`--authentication-token-webhook-config-file`), as kube-apiserver's webhook token
 * authenticator does: the answer must be a TokenReview of the same apiVersion; `status.authenticated`
 * with `status.user` is the user; otherwise `status.error` (when given) is the `error`, else
 * `no-opinion`. When the request names audiences, the token is valid for those that the answer's
 * `status.audiences` (or, without them, the server's own audiences) contain; none → `no-opinion`.
 * Resets, lost connections, 500, 504, 429 and answers with `Retry-After` are retried with
 * `retryBackoff`; other failures are an `error` at once. Each call stops when the request's signal
 * aborts or after 30 s. The token is never logged or put in a message. Cache it with
 * `cachedTokenAuthenticator` (`--authentication-token-webhook-cache-ttl`, errors not cached).
 */
export function webhookTokenAuthenticator(options: WebhookTokenOptions): TokenAuthenticator {
  const { config, logger } = options;
  const apiVersion = `${options.domain.group('authentication')}/${options.version}`;
  const resource = `tokenreviews.${options.domain.group('authentication')}`;
  const backoff = options.retryBackoff ?? DEFAULT_WEBHOOK_RETRY_BACKOFF;
  const random = options.random ?? Math.random;
  const secure = config.server.protocol === 'https:';
  const agent = secure
    ? new Agent({
        keepAlive: true,
        ca: config.ca,
        cert: config.clientCert,
        key: config.clientKey,
        rejectUnauthorized: !config.insecureSkipTlsVerify,
        servername: config.serverName,
      })
    : undefined;
  const implicit = new Set(options.implicitAudiences);

  const call = (body: string, signal: AbortSignal): Promise<CallResult> =>
    new Promise((resolve) => {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, */*',
        'content-length': String(Buffer.byteLength(body)),
      };
      if (config.token !== undefined) headers.authorization = `Bearer ${config.token}`;
      const onResponse = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_RESPONSE_BYTES) {
            res.destroy(new Error('response body too large'));
            return;
          }
          chunks.push(c);
        });
        res.on('error', (e) => resolve({ ok: false, message: e.message, retry: retriableTransportError(e) }));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const code = res.statusCode ?? 0;
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          if (code >= 200 && code < 300) {
            if (parsed === undefined)
              resolve({ ok: false, message: `invalid response body: not JSON (post ${resource})`, retry: false });
            else resolve({ ok: true, body: parsed });
            return;
          }
          const status = parsed as { kind?: unknown; message?: unknown } | undefined;
          const message =
            status?.kind === 'Status' && typeof status.message === 'string' && status.message !== ''
              ? status.message
              : `${statusMessage(code, text)} (post ${resource})`;
          const retry = code === 500 || code === 504 || code === 429 || res.headers['retry-after'] !== undefined;
          resolve({ ok: false, message, retry });
        });
      };
      const req = secure
        ? httpsRequest(config.server, { method: 'POST', headers, agent, signal }, onResponse)
        : httpRequest(config.server, { method: 'POST', headers, signal }, onResponse);
      req.on('error', (e: NodeJS.ErrnoException) =>
        resolve({
          ok: false,
          message: `Post ${JSON.stringify(config.server.href)}: ${e.message}`,
          retry: retriableTransportError(e),
        }),
      );
      req.end(body);
    });

  return {
    async authenticateToken(token, ctx): Promise<TokenAuthResult> {
      const wanted = ctx.audiences;
      const checkAudiences = wanted.length > 0;
      const review = {
        apiVersion,
        kind: 'TokenReview',
        metadata: { creationTimestamp: null },
        spec: checkAudiences ? { token, audiences: [...wanted] } : { token },
        status: { user: {} },
      };
      const body = JSON.stringify(review);
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
      let result: CallResult | undefined;
      let delay = backoff.durationMs;
      for (let attempt = 1; ; attempt++) {
        result = await call(body, signal);
        if (result.ok || !result.retry || attempt >= backoff.steps || signal.aborted) break;
        const wait = delay + (backoff.jitter > 0 ? random() * backoff.jitter * delay : 0);
        delay *= backoff.factor;
        try {
          await sleep(wait, signal);
        } catch {
          break;
        }
      }
      if (!result.ok) {
        const message = redact(result.message, token);
        logger?.error('Failed to make webhook authenticator request', { error: message });
        return { kind: 'error', message };
      }
      const answer = result.body as { apiVersion?: unknown; kind?: unknown; status?: unknown } | null;
      if (
        typeof answer !== 'object' ||
        answer === null ||
        answer.apiVersion !== apiVersion ||
        answer.kind !== 'TokenReview'
      ) {
        const got =
          typeof answer === 'object' && answer !== null
            ? `${String(answer.apiVersion)}, Kind=${String(answer.kind)}`
            : 'no object';
        const message = `the webhook answered ${got}; expected ${apiVersion}, Kind=TokenReview`;
        logger?.error('Failed to make webhook authenticator request', { error: message });
        return { kind: 'error', message };
      }
      const status = (typeof answer.status === 'object' && answer.status !== null ? answer.status : {}) as Record<
        string,
        unknown
      >;
      let audiences: string[] | undefined;
      if (checkAudiences) {
        const got = stringList(status.audiences);
        const valid = got !== undefined && got.length > 0 ? new Set(got) : implicit;
        audiences = wanted.filter((a) => valid.has(a));
        if (audiences.length === 0) return TOKEN_NO_OPINION;
      }
      if (status.authenticated !== true) {
        const error = typeof status.error === 'string' ? status.error : '';
        return error !== '' ? { kind: 'error', message: redact(error, token) } : TOKEN_NO_OPINION;
      }
      const u = (typeof status.user === 'object' && status.user !== null ? status.user : {}) as Record<string, unknown>;
      let extra: Record<string, readonly string[]> | undefined;
      if (typeof u.extra === 'object' && u.extra !== null) {
        extra = {};
        for (const [k, v] of Object.entries(u.extra as Record<string, unknown>))
          extra[k] = Object.freeze(stringList(v) ?? []);
      }
      const user: UserInfo = Object.freeze({
        name: typeof u.username === 'string' ? u.username : '',
        ...(typeof u.uid === 'string' && u.uid !== '' ? { uid: u.uid } : {}),
        groups: Object.freeze(stringList(u.groups) ?? []),
        ...(extra ? { extra: Object.freeze(extra) } : {}),
      });
      return audiences ? { kind: 'user', user, audiences } : { kind: 'user', user };
    },
  } satisfies TokenAuthenticator;
}
