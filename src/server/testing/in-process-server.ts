import { randomUUID } from 'node:crypto';
import { builtinResources } from '../../apis/builtin.js';
import type { ApiObject } from '../../apis/object.js';
import { buildRequestAuthenticator } from '../../authn/request-authenticator.js';
import { X509Authenticator } from '../../authn/x509-authenticator.js';
import { EncodingCache } from '../../encoding/index.js';
import { discoveryHandler } from '../../endpoints/discovery/discovery-handler.js';
import { authentication } from '../../endpoints/filters/authentication.js';
import { requestInfo } from '../../endpoints/filters/request-info.js';
import { type ApiResponse, chain, type Handler } from '../../endpoints/handler.js';
import { resourceHandler } from '../../endpoints/handlers/resource-handler.js';
import { ServedResources } from '../../endpoints/served-resources.js';
import { apiRequest, type TestRequestInit } from '../../endpoints/testing/api-request.js';
import { newOrchFeatureGates, OrchFeatures } from '../../featuregate/orch-features.js';
import type { GenericRegistry } from '../../registry/generic/generic-registry.js';
import { decodeStored } from '../../registry/generic/stored-object.js';
import { createRegistry } from '../../registry/resources/index.js';
import { Cacher } from '../../storage/cacher/index.js';
import { keyScheme, resourcePrefix } from '../../storage/keys.js';
import { MemoryStore } from '../../storage/memory/memory-store.js';
import { systemClock } from '../../util/clock.js';
import { silentLogger } from '../../util/logger.js';
import { ensureSystemNamespaces } from '../bootstrap-namespaces.js';
import { panicRecovery } from '../filters/panic-recovery.js';
import { HealthRegistry } from '../health/health-registry.js';
import { openApiHandler } from '../openapi-handler.js';
import { rootHandler } from '../root-handler.js';
import { versionInfo } from '../version.js';

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
  /** Calls the handler; a streamed response is read until it ends (pass a `signal` to end a watch). */
  request(init: TestRequestInit): Promise<ReadResponse>;
  /** Stops the watch caches; idempotent. */
  close(): Promise<void>;
}

/**
 * Builds the handler `startServer` serves, around a fresh memory store: the built-in resources
 * behind watch caches, the system namespaces, and the same filter chain (panic recovery, request
 * info, authentication: requests without a client certificate are `system:anonymous`). Nothing
 * listens; call `handler` (or `request`) with `ApiRequest`s. Keep the composition in step with
 * `startServer`.
 */
export async function startInProcessServer(options: InProcessServerOptions = {}): Promise<InProcessServer> {
  const gates = newOrchFeatureGates();
  if (options.featureGates) gates.setFromMap(options.featureGates);
  const lifetime = new AbortController();
  const store = new MemoryStore();
  const keys = keyScheme('/registry');
  const defs = builtinResources();
  const registries = new Map<string, GenericRegistry>();
  const namespaceLookup = async (name: string, signal: AbortSignal): Promise<ApiObject | undefined> => {
    try {
      return await registries.get('/namespaces')!.get({ namespace: '', signal }, name, {});
    } catch (e) {
      if ((e as { code?: number }).code === 404) return undefined;
      throw e;
    }
  };
  const cachers: Cacher<ApiObject>[] = [];
  for (const def of defs) {
    const cacher = new Cacher<ApiObject>({
      store,
      prefix: resourcePrefix(keys, def.group, def.resource),
      decode: decodeStored,
    });
    cachers.push(cacher);
    const registry = createRegistry({
      cacher,
      def,
      gr: { group: def.group, resource: def.resource },
      store,
      keys,
      clock: systemClock,
      uid: randomUUID,
      namespaceLookup: def.namespaced ? namespaceLookup : undefined,
      allowUnsafeMalformedObjectDeletion: gates.enabled(OrchFeatures.AllowUnsafeMalformedObjectDeletion),
    });
    registries.set(`${def.group}/${def.resource}`, registry);
  }
  const served = new ServedResources(
    defs.map((def) => ({ def, store: registries.get(`${def.group}/${def.resource}`)! })),
  );
  const handler = chain(
    [
      panicRecovery(silentLogger),
      requestInfo(),
      authentication(buildRequestAuthenticator({ authenticators: [new X509Authenticator()] }), lifetime.signal),
    ],
    rootHandler(
      {
        health: new HealthRegistry({ logger: silentLogger }),
        openapi: openApiHandler(defs),
        discovery: discoveryHandler({ resources: served, version: versionInfo(), serverAddress: () => '127.0.0.1' }),
      },
      resourceHandler(served, {
        cborEnabled: gates.enabled(OrchFeatures.CBORServingAndStorage),
        compression: gates.enabled(OrchFeatures.APIResponseCompression),
        now: () => systemClock.now(),
        encodings: new EncodingCache(),
        watchList: gates.enabled(OrchFeatures.WatchList),
      }),
    ),
  );
  await Promise.all(cachers.map((c) => c.start(lifetime.signal)));
  await ensureSystemNamespaces(registries.get('/namespaces')!, lifetime.signal);
  return {
    handler,
    store,
    request: async (init) => readResponse(await handler(apiRequest(init)), init.signal),
    close: async () => lifetime.abort(),
  };
}

/** Reads a handler's response to its end (a stream until `pump` resolves or `signal` aborts). */
export async function readResponse(res: ApiResponse, signal?: AbortSignal): Promise<ReadResponse> {
  let body: Buffer;
  if (res.kind === 'body') {
    body = Buffer.from(res.body);
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
