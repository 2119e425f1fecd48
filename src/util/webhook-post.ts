import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import { formatGoDurationNanos } from './go-duration.js';
import type { WebhookClientConfig } from './webhook-client-config.js';

/** kube's `wait.Backoff` for webhook calls. */
export interface WebhookRetryBackoff {
  readonly durationMs: number;
  readonly factor: number;
  readonly jitter: number;
  /** Attempts at most. */
  readonly steps: number;
}

/** kube-apiserver's default backoff for authentication and authorization webhooks: 500 ms ×1.5, jitter 0.2, 5 attempts. */
export const DEFAULT_WEBHOOK_RETRY_BACKOFF: WebhookRetryBackoff = Object.freeze({
  durationMs: 500,
  factor: 1.5,
  jitter: 0.2,
  steps: 5,
});

const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

/**
 * How one attempt ended, as kube's webhook metrics name it: `success` (a 2xx JSON answer),
 * `timeout` (the attempt's time ran out, or the webhook answered 504), `canceled` (the caller's
 * signal aborted) or `error` (anything else).
 */
export type WebhookOutcome = 'success' | 'error' | 'timeout' | 'canceled';

/** One attempt, reported to the `onAttempt` of {@link WebhookPoster.post}. */
export interface WebhookAttempt {
  readonly outcome: WebhookOutcome;
  /** HTTP status of the answer; 0 when none came. */
  readonly statusCode: number;
  readonly latencyMs: number;
}

/** The end of a POST (after any retries): the parsed body of a 2xx answer, or why there is none. */
export type WebhookPostResult =
  | { readonly ok: true; readonly body: unknown; readonly statusCode: number }
  | {
      readonly ok: false;
      readonly message: string;
      readonly statusCode: number;
      readonly outcome: Exclude<WebhookOutcome, 'success'>;
    };

export interface WebhookPostOptions {
  /** Names the call in messages, as client-go does: `(post <resource>)`. */
  readonly resource: string;
  readonly retryBackoff?: WebhookRetryBackoff;
  /** Random source for jitter (tests); default Math.random. */
  readonly random?: () => number;
  /**
   * Time each attempt may take (kube's client `Timeout`); it is also sent as the `timeout` query
   * parameter, as client-go does. Absent: only the caller's signal limits an attempt.
   */
  readonly attemptTimeoutMs?: number;
  /** Monotonic milliseconds for latencies; default `performance.now`. */
  readonly now?: () => number;
}

/** POSTs JSON bodies to one webhook, with kube's retries. */
export interface WebhookPoster {
  /** `body` is sent as is (JSON); `onAttempt` hears of every attempt (metrics). Resolves, never rejects. */
  post(body: string, signal: AbortSignal, onAttempt?: (attempt: WebhookAttempt) => void): Promise<WebhookPostResult>;
  /** Closes idle keep-alive connections. */
  close(): void;
}

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

/** One attempt's end, with whether kube would retry it. */
type Attempt =
  | { readonly ok: true; readonly body: unknown; readonly statusCode: number }
  | {
      readonly ok: false;
      readonly message: string;
      readonly statusCode: number;
      readonly retry: boolean;
      readonly outcome: Exclude<WebhookOutcome, 'success'>;
    };

/**
 * A client for one webhook of a client configuration (kubeconfig): HTTPS with its CA, client
 * certificate and bearer token (plain HTTP when the server URL says so). Each `post` is retried
 * as kube's `WithExponentialBackoff` with `DefaultShouldRetry` does: resets, lost connections,
 * 500, 504, 429 and answers with `Retry-After`, up to `retryBackoff.steps` attempts, waiting
 * `durationMs × factor^n` plus jitter between them; other failures end at once. Error messages
 * follow client-go (`Post "<url>": <cause>`, `<status text> (post <resource>)`, a `Status`
 * answer's message); they never contain the bearer token.
 */
export function webhookPoster(config: WebhookClientConfig, o: WebhookPostOptions): WebhookPoster {
  const backoff = o.retryBackoff ?? DEFAULT_WEBHOOK_RETRY_BACKOFF;
  const random = o.random ?? Math.random;
  const now = o.now ?? (() => performance.now());
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
  const target = new URL(config.server.href);
  if (o.attemptTimeoutMs !== undefined) {
    target.searchParams.set('timeout', formatGoDurationNanos(BigInt(Math.round(o.attemptTimeoutMs * 1e6))));
  }

  const attempt = (body: string, caller: AbortSignal): Promise<Attempt> =>
    new Promise((resolve) => {
      const timer = o.attemptTimeoutMs === undefined ? undefined : AbortSignal.timeout(o.attemptTimeoutMs);
      const signal = timer ? AbortSignal.any([caller, timer]) : caller;
      // Why an aborted attempt ended: the caller went away, or its own time ran out.
      const aborted = (): Exclude<WebhookOutcome, 'success'> | undefined =>
        caller.aborted ? 'canceled' : timer?.aborted ? 'timeout' : undefined;
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, */*',
        'content-length': String(Buffer.byteLength(body)),
      };
      if (config.token !== undefined) headers.authorization = `Bearer ${config.token}`;
      const onResponse = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const code = res.statusCode ?? 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_RESPONSE_BYTES) {
            res.destroy(new Error('response body too large'));
            return;
          }
          chunks.push(c);
        });
        res.on('error', (e: NodeJS.ErrnoException) =>
          resolve({
            ok: false,
            message: e.message,
            statusCode: code,
            retry: retriableTransportError(e),
            outcome: aborted() ?? 'error',
          }),
        );
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          if (code >= 200 && code < 300) {
            if (parsed === undefined) {
              resolve({
                ok: false,
                message: `invalid response body: not JSON (post ${o.resource})`,
                statusCode: code,
                retry: false,
                outcome: 'error',
              });
            } else resolve({ ok: true, body: parsed, statusCode: code });
            return;
          }
          const status = parsed as { kind?: unknown; message?: unknown } | undefined;
          const message =
            status?.kind === 'Status' && typeof status.message === 'string' && status.message !== ''
              ? status.message
              : `${statusMessage(code, text)} (post ${o.resource})`;
          const retry = code === 500 || code === 504 || code === 429 || res.headers['retry-after'] !== undefined;
          resolve({ ok: false, message, statusCode: code, retry, outcome: code === 504 ? 'timeout' : 'error' });
        });
      };
      const req = secure
        ? httpsRequest(target, { method: 'POST', headers, agent, signal }, onResponse)
        : httpRequest(target, { method: 'POST', headers, signal }, onResponse);
      req.on('error', (e: NodeJS.ErrnoException) => {
        const why = aborted();
        const cause =
          why === 'timeout'
            ? 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)'
            : why === 'canceled'
              ? 'context canceled'
              : e.message;
        resolve({
          ok: false,
          message: `Post ${JSON.stringify(target.href)}: ${cause}`,
          statusCode: 0,
          retry: why === undefined && retriableTransportError(e),
          outcome: why ?? 'error',
        });
      });
      req.end(body);
    });

  return {
    async post(body, signal, onAttempt) {
      let result: Attempt | undefined;
      let delay = backoff.durationMs;
      for (let n = 1; ; n++) {
        const started = now();
        result = await attempt(body, signal);
        onAttempt?.({
          outcome: result.ok ? 'success' : result.outcome,
          statusCode: result.statusCode,
          latencyMs: now() - started,
        });
        if (result.ok || !result.retry || n >= backoff.steps || signal.aborted) break;
        const wait = delay + (backoff.jitter > 0 ? random() * backoff.jitter * delay : 0);
        delay *= backoff.factor;
        try {
          await sleep(wait, signal);
        } catch {
          break;
        }
      }
      if (result.ok) return result;
      return { ok: false, message: result.message, statusCode: result.statusCode, outcome: result.outcome };
    },
    close() {
      agent?.destroy();
    },
  };
}
