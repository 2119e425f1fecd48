import { setMaxListeners } from 'node:events';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import { builtinResources } from '../../apis/builtin.js';
import { type ApiResponse, bodyBytes, type Handler } from '../../endpoints/handler.js';
import { apiRequest, type TestRequestInit } from '../../endpoints/testing/api-request.js';
import { newOrchFeatureGates } from '../../featuregate/orch-features.js';
import type { ResourceSet } from '../../registry/resource-set/index.js';
import { keyScheme } from '../../storage/keys.js';
import { MemoryStore } from '../../storage/memory/memory-store.js';
import { silentLogger } from '../../util/logger.js';
import { buildApiServer } from '../api-server.js';
import { HealthRegistry } from '../health/health-registry.js';

export interface InProcessServerOptions {
  /** Feature gate settings, e.g. `{ WatchList: false }`. */
  readonly featureGates?: Readonly<Record<string, boolean>>;
}

/** A response read to its end: status, headers and body bytes. */
export interface ReadResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: Buffer;
  /** The body as UTF-8 JSON. */
  json(): unknown;
}

/** The server's handler chain over a memory store, without sockets or TLS. */
export interface InProcessServer {
  /** The full chain: filters, health, discovery, OpenAPI, resources. */
  readonly handler: Handler;
  readonly store: MemoryStore;
  readonly resources: ResourceSet;
  /** Calls the handler; a streamed response is read until it ends (pass a `signal` to end a watch). */
  request(init: TestRequestInit): Promise<ReadResponse>;
  /** Stops the watch caches; idempotent. */
  close(): Promise<void>;
}

/**
 * The pipeline `startServer` serves (the same {@link buildApiServer}), around a fresh memory
 * store: the built-in resources behind watch caches and the system namespaces. Requests without
 * a client certificate are `system:anonymous`. Nothing listens; call `handler` (or `request`)
 * with `ApiRequest`s.
 */
export async function startInProcessServer(options: InProcessServerOptions = {}): Promise<InProcessServer> {
  const gates = newOrchFeatureGates();
  if (options.featureGates) gates.setFromMap(options.featureGates);
  const lifetime = new AbortController();
  // One listener per served resource, informer and controller: many by design, not a leak.
  setMaxListeners(0, lifetime.signal);
  const store = new MemoryStore();
  const api = buildApiServer({
    store,
    keys: keyScheme('/registry'),
    domain: ORCH_DOMAIN,
    gates,
    logger: silentLogger,
    health: new HealthRegistry({ logger: silentLogger }),
    lifetime: lifetime.signal,
    serverAddress: () => '127.0.0.1',
    // A harness for the pipeline's handlers, without the default RBAC policy: everyone may do everything.
    authorizationModes: ['AlwaysAllow'],
  });
  await api.serve(builtinResources(), lifetime.signal);
  const handler: Handler = api.handler;
  return {
    handler,
    store,
    resources: api.resources,
    request: async (init) => readResponse(await handler(apiRequest(init)), init.signal),
    close: async () => lifetime.abort(),
  };
}

/** Reads a handler's response to its end (a stream until `pump` resolves or `signal` aborts). */
export async function readResponse(res: ApiResponse, signal?: AbortSignal): Promise<ReadResponse> {
  let body: Buffer;
  if (res.kind === 'body') {
    body = Buffer.from(bodyBytes(res.body));
  } else {
    const chunks: Buffer[] = [];
    const local = new AbortController();
    const onAbort = () => local.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) local.abort();
    try {
      await res.pump((chunk) => {
        chunks.push(Buffer.from(chunk));
        return undefined;
      }, local.signal);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    body = Buffer.concat(chunks);
  }
  return { status: res.status, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) };
}
