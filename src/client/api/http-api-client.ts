import type { ApiDomain } from '../../apis/api-domain.js';
import type { ApiObject } from '../../apis/object.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { errorText } from '../client-support.js';
import type { RestConfig } from '../rest/kubeconfig.js';
import { type LimiterTime, rateLimiterFor } from '../rest/rate-limiter.js';
import { RestClient } from '../rest/rest-client.js';
import type { ResourceType } from '../typed/resource-type.js';
import { type TypedResourceClient, typedClient } from '../typed/typed-client.js';
import { type ClientContentTypes, resolveContentTypes } from '../wire/content-types.js';
import { WireCodecs } from '../wire/wire-codecs.js';
import type { ApiClient, ApiResource, ApiResourceChange, ResourceClient } from './api-client.js';
import { type DiscoveredApi, discover, resourceKey } from './discovery.js';
import { HttpResourceClient } from './http-resource-client.js';

/** How often `subscribe()` re-reads discovery by default (kube's controller manager: 30 s). */
export const DEFAULT_DISCOVERY_PERIOD_MS = 30_000;

/** Options of {@link HttpApiClient.connect}. */
export interface HttpApiClientOptions {
  /** Server and credentials (client certificate, bearer token, CA). */
  readonly config: RestConfig;
  /** Names the aggregated discovery group. */
  readonly domain: ApiDomain;
  /** Field manager of this client's writes (`fieldManager=` on every write). */
  readonly fieldManager: string;
  /** Default `<fieldManager>/v1.32.0 (<platform>/<arch>)`. */
  readonly userAgent?: string;
  /** ClientConnectionConfiguration `qps` (client-go: < 0 no limit, 0 → 5). */
  readonly qps?: number;
  /** ClientConnectionConfiguration `burst` (0 → 10). */
  readonly burst?: number;
  /**
   * ClientConnectionConfiguration `contentType`: the media type of object bodies,
   * `application/json` (default), `application/vnd.kubernetes.protobuf` (or the profile's own
   * Protobuf type) or `application/cbor`. Kinds without a Protobuf form (custom resources) are
   * sent as JSON where Protobuf is configured.
   */
  readonly contentType?: string;
  /**
   * ClientConnectionConfiguration `acceptContentTypes` (comma-separated, in order of
   * preference): the `Accept` of resource requests. Default `<contentType>, *\/*` when
   * `contentType` is set, else `application/json`. Protobuf entries are left out for kinds
   * without a Protobuf form. Responses are read in whatever format they come.
   */
  readonly acceptContentTypes?: string;
  /** How often discovery is re-read in the background while the client is open. Default 30 s; 0: never. */
  readonly discoveryPeriodMs?: number;
  /** The current bearer token, read before every request (refreshed credentials). */
  readonly bearerToken?: () => string | undefined;
  readonly logger?: Logger;
  /**
   * The codecs request bodies are written and responses read with. Default: those of the
   * built-in kinds of `domain`.
   */
  readonly codecs?: WireCodecs;
  /** Drives the rate limiter (tests). */
  readonly limiterTime?: LimiterTime;
}

/**
 * {@link ApiClient} over HTTPS, as one identity (the credentials of its {@link RestConfig}).
 * What is served is learned from discovery at `connect` (aggregated discovery when the server
 * serves it) and again every `discoveryPeriodMs` while the client is open, or on
 * {@link refresh}; `subscribe()` listeners hear of each resource added or removed. Every request passes a
 * client-side token bucket (`qps`/`burst`). Call {@link close} when done.
 */
export class HttpApiClient implements ApiClient {
  readonly fieldManager: string;
  private api: DiscoveredApi = { resources: [], versions: new Map() };
  private byKey = new Map<string, ApiResource>();
  private readonly clients = new Map<string, HttpResourceClient>();
  private readonly listeners = new Set<(change: ApiResourceChange) => void>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly lifetime = new AbortController();
  private refreshing: Promise<void> | undefined;
  private readonly logger: Logger;

  private constructor(
    /** The REST client under this API client (same credentials and rate limit). */
    readonly rest: RestClient,
    private readonly options: HttpApiClientOptions,
    private readonly codecs: WireCodecs,
    private readonly contentTypes: ClientContentTypes,
  ) {
    this.fieldManager = options.fieldManager;
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * A client of the server `options.config` names, once its discovery has been read.
   * @throws ContentTypeConfigError listing every content type the client cannot speak;
   *   StatusError or a transport error when discovery cannot be read.
   */
  static async connect(options: HttpApiClientOptions, signal?: AbortSignal): Promise<HttpApiClient> {
    const contentTypes = resolveContentTypes(options, options.domain.protobufMediaType);
    const codecs = options.codecs ?? new WireCodecs(options.domain);
    // Requests other than a resource's (discovery, `rest.call` of tools) ask for JSON.
    const rest = new RestClient(options.config, {
      userAgent: options.userAgent ?? `${options.fieldManager}/v1.32.0 (${process.platform}/${process.arch})`,
      rateLimiter: rateLimiterFor(options.qps, options.burst, options.limiterTime),
      bearerToken: options.bearerToken,
      codec: codecs,
    });
    const client = new HttpApiClient(rest, options, codecs, contentTypes);
    try {
      await client.refresh(signal);
    } catch (e) {
      client.close();
      throw e;
    }
    client.poll();
    return client;
  }

  /** Re-reads discovery now and tells the listeners what was added and removed. */
  refresh(signal?: AbortSignal): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const s = signal ? AbortSignal.any([signal, this.lifetime.signal]) : this.lifetime.signal;
        this.apply(await discover(this.rest, this.options.domain.discoveryGroup, s));
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  private apply(next: DiscoveredApi): void {
    const before = this.byKey;
    const after = new Map(next.resources.map((r) => [resourceKey(r), r]));
    this.api = next;
    this.byKey = after;
    const changes: ApiResourceChange[] = [];
    for (const [key, r] of before) {
      if (!after.has(key) || !sameResource(r, after.get(key)!)) {
        this.clients.delete(key);
        changes.push({ type: 'removed', resource: r });
      }
    }
    for (const [key, r] of after) {
      if (!before.has(key) || !sameResource(r, before.get(key)!)) changes.push({ type: 'added', resource: r });
    }
    for (const change of changes) {
      for (const l of [...this.listeners]) {
        try {
          l(change);
        } catch (e) {
          this.logger.error('client: discovery listener failed', { error: errorText(e) });
        }
      }
    }
  }

  resource(group: string, version: string, resource: string): ResourceClient | undefined {
    const key = resourceKey({ group, version, resource });
    const r = this.byKey.get(key);
    if (!r) return undefined;
    let c = this.clients.get(key);
    if (!c) {
      const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
      const types = this.codecs.hasProtobuf(apiVersion, r.kind)
        ? this.contentTypes.withProtobuf
        : this.contentTypes.withoutProtobuf;
      c = new HttpResourceClient(r, this.rest, this.fieldManager, { codecs: this.codecs, types });
      this.clients.set(key, c);
    }
    return c;
  }

  /**
   * The typed client of a resource (`client.typed(ConfigMaps)`); see `client/typed/`. Throws
   * `ResourceNotServedError` when discovery did not list it.
   */
  typed<T extends ApiObject>(type: ResourceType<T>): TypedResourceClient<T> {
    return typedClient(this, type, this.options.domain);
  }

  preferred(group: string, resource: string): ResourceClient | undefined {
    for (const version of this.api.versions.get(group) ?? []) {
      const c = this.resource(group, version, resource);
      if (c) return c;
    }
    return undefined;
  }

  forKind(group: string, kind: string): ResourceClient | undefined {
    for (const version of this.api.versions.get(group) ?? []) {
      const r = this.api.resources.find((x) => x.group === group && x.version === version && x.kind === kind);
      if (r) return this.resource(group, version, r.resource);
    }
    return undefined;
  }

  resources(): readonly ApiResource[] {
    return this.api.resources;
  }

  private poll(): void {
    const period = this.options.discoveryPeriodMs ?? DEFAULT_DISCOVERY_PERIOD_MS;
    if (!(period > 0) || this.lifetime.signal.aborted) return;
    this.timer = setInterval(() => {
      this.refresh().catch((e) => {
        if (!this.lifetime.signal.aborted) this.logger.warn('client: discovery failed', { error: errorText(e) });
      });
    }, period);
    this.timer.unref?.();
  }

  subscribe(listener: (change: ApiResourceChange) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Stops discovery polling, aborts a discovery in flight and closes the connections. */
  close(): void {
    this.lifetime.abort();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.listeners.clear();
    this.rest.close();
  }
}

function sameResource(a: ApiResource, b: ApiResource): boolean {
  return (
    a.kind === b.kind &&
    a.namespaced === b.namespaced &&
    a.verbs.join(',') === b.verbs.join(',') &&
    a.subresources.join(',') === b.subresources.join(',')
  );
}
