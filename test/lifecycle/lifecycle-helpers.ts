import type { HttpResult } from '../support/http-client.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
export type Json = any;

export type Api = (method: string, path: string, o?: { body?: object | string }) => Promise<HttpResult>;

type RawApi = (
  method: string,
  path: string,
  o?: { body?: object | string; headers?: Record<string, string> },
) => Promise<HttpResult>;

/**
 * Sends bodies with a Content-Length (as kubectl and client-go do): a chunked DELETE body is
 * answered 400 by the serving layer today.
 */
export function withContentLength(api: RawApi): Api {
  return (method, path, o = {}) => {
    if (o.body === undefined) return api(method, path);
    const text = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    return api(method, path, {
      body: text,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) },
    });
  };
}

/** Polls until `check` returns something truthy; fails with `what` after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false | null>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function configMap(name: string, meta: Record<string, unknown> = {}): Json {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, data: { k: 'v' } };
}

export function ownerRef(owner: Json, extra: Record<string, unknown> = {}): Json {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    ...extra,
  };
}

/** Helpers bound to one server's admin API. */
export function lifecycleApi(api: Api) {
  const cmPath = (ns: string, name = '') => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;
  return {
    async createNamespace(name: string): Promise<Json> {
      const r = await api('POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
      });
      if (r.status !== 201) throw new Error(`create namespace ${name}: ${r.status} ${r.text}`);
      return r.json();
    },
    async createConfigMap(ns: string, name: string, meta: Record<string, unknown> = {}): Promise<Json> {
      const r = await api('POST', cmPath(ns), { body: configMap(name, meta) });
      if (r.status !== 201) throw new Error(`create configmap ${ns}/${name}: ${r.status} ${r.text}`);
      return r.json();
    },
    /** The object, or undefined on 404. */
    async find(path: string): Promise<Json | undefined> {
      const r = await api('GET', path);
      if (r.status === 404) return undefined;
      if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text}`);
      return r.json();
    },
    async removeFinalizers(path: string): Promise<HttpResult> {
      const live = (await api('GET', path)).json();
      live.metadata.finalizers = [];
      return api('PUT', path, { body: live });
    },
    gone(path: string, timeoutMs?: number): Promise<true> {
      return eventually(
        `${path} to be removed`,
        async () => (await api('GET', path)).status === 404,
        timeoutMs,
      ) as Promise<true>;
    },
    cmPath,
  };
}
