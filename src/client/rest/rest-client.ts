import { Agent, request } from 'node:https';
import { StatusError, type StatusReason } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { NamespacedObjectClient } from '../leaderelection/object-client.js';
import type { RestConfig } from './kubeconfig.js';

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

/** The `StatusError` of a failed response: its `Status` body when it has one. */
function statusErrorOf(code: number, body: string): StatusError {
  try {
    const s = JSON.parse(body) as { kind?: string; reason?: StatusReason; message?: string; details?: never };
    if (s && s.kind === 'Status') return new StatusError(code, s.reason ?? '', s.message ?? '', s.details);
  } catch {
    // Not JSON: fall through.
  }
  return new StatusError(code, '', body.trim() || `the server responded with status ${code}`);
}

/**
 * A minimal JSON client of the API over HTTPS (keep-alive), authenticated with a client
 * certificate or a bearer token. Failed requests throw the server's `Status` as a
 * `StatusError`; unreachable servers and aborted requests throw plain errors. Credentials never
 * appear in errors.
 */
export class RestClient {
  private readonly agent: Agent;
  private readonly base: URL;

  constructor(
    private readonly config: RestConfig,
    private readonly options: { readonly userAgent?: string } = {},
  ) {
    this.base = new URL(config.server);
    this.agent = new Agent({ keepAlive: true, ca: config.ca, cert: config.cert, key: config.key });
  }

  /** Sends one request; resolves with the decoded JSON body of a 2xx response. */
  request<T>(method: string, path: string, body: unknown, signal: AbortSignal): Promise<T> {
    const url = new URL(path, this.base);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    if (this.config.token) headers.authorization = `Bearer ${this.config.token}`;
    if (this.options.userAgent) headers['user-agent'] = this.options.userAgent;
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted) return reject(new Error(`${method} ${url.pathname}: aborted`));
      const req = request(url, { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          signal.removeEventListener('abort', onAbort);
          const text = Buffer.concat(chunks).toString('utf8');
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299) return reject(statusErrorOf(code, text));
          try {
            resolve(JSON.parse(text) as T);
          } catch (e) {
            reject(new Error(`${method} ${url.pathname}: invalid JSON in response`, { cause: e }));
          }
        });
        res.on('error', reject);
      });
      const onAbort = () => req.destroy(new Error(`${method} ${url.pathname}: aborted`));
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      });
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
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
