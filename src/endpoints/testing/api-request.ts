import { type ApiDomain, ORCH_DOMAIN } from '../../apis/api-domain.js';
import { apiErrors } from '../../apis/meta/status.js';
import type { RequestHead } from '../../authn/authenticator.js';
import type { ApiRequest } from '../handler.js';
import { RequestWarnings } from '../request/request-warnings.js';

/** What a test request carries; header names in any case. */
export interface TestRequestInit {
  readonly method?: string;
  /** Path and query, e.g. `/api/v1/namespaces?limit=1`. */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  readonly signal?: AbortSignal;
  /** Default: the `orch.io` profile. */
  readonly domain?: ApiDomain;
}

/**
 * An {@link ApiRequest} as the transport adapter builds it, for calling a handler in process:
 * lower-cased headers, the path percent-decoded, no client certificate. `readBody` enforces the
 * limit with the same 413 the transport gives.
 */
export function apiRequest(init: TestRequestInit): ApiRequest {
  const method = init.method ?? 'GET';
  const q = init.url.indexOf('?');
  const rawPath = q < 0 ? init.url : init.url.slice(0, q);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
  const body = init.body === undefined ? Buffer.alloc(0) : Buffer.from(init.body);
  const signal = init.signal ?? new AbortController().signal;
  const head: RequestHead = {
    signal,
    method,
    url: init.url,
    headers,
    headerValues: (name) => {
      const v = headers[name.toLowerCase()];
      return v === undefined ? [] : [v];
    },
    peerCertificate: undefined,
  };
  return {
    method,
    path: decodeURIComponent(rawPath),
    query: new URLSearchParams(q < 0 ? '' : init.url.slice(q + 1)),
    headers,
    signal,
    head,
    warnings: new RequestWarnings(),
    domain: init.domain ?? ORCH_DOMAIN,
    async readBody(limit) {
      if (body.length > limit) throw apiErrors.requestEntityTooLarge(limit);
      return body;
    },
  };
}
