import { apiOf } from '../support/api.js';
import type { HttpResult } from '../support/http-client.js';
import type { ServerProcess } from '../support/server-process.js';

export const APPLY_YAML = 'application/apply-patch+yaml';
export const MERGE_PATCH = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const CM_BASE = '/api/v1/namespaces/default/configmaps';
export const SA_BASE = '/api/v1/namespaces/default/serviceaccounts';

type Obj = Record<string, unknown>;

export interface ApplyOptions {
  readonly force?: boolean;
  /** Extra query text, e.g. `dryRun=All`. */
  readonly query?: string;
  readonly contentType?: string;
}

/** Request helpers for field-ownership tests against one server. */
export function ownershipClient(server: Pick<ServerProcess, 'url' | 'admin'>) {
  const api = apiOf(server).admin;
  const qs = (params: Record<string, string | undefined>, extra?: string): string => {
    const parts = Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`);
    if (extra) parts.push(extra);
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  };
  return {
    api,
    /** A server-side apply of `body` (an object sent as JSON, or YAML text) by `manager`. */
    apply(path: string, manager: string | undefined, body: Obj | string, o: ApplyOptions = {}): Promise<HttpResult> {
      const query = qs({ fieldManager: manager, force: o.force === undefined ? undefined : String(o.force) }, o.query);
      return api('PATCH', `${path}${query}`, {
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': o.contentType ?? APPLY_YAML },
      });
    },
    /** A non-apply PATCH by `manager` (absent: recorded from the User-Agent). */
    patch(path: string, manager: string | undefined, type: string, body: unknown, query?: string): Promise<HttpResult> {
      return api('PATCH', `${path}${qs({ fieldManager: manager }, query)}`, {
        body: JSON.stringify(body),
        headers: { 'content-type': type },
      });
    },
    /** PUT of the whole object by `manager`. */
    put(path: string, manager: string | undefined, body: Obj, query?: string): Promise<HttpResult> {
      return api('PUT', `${path}${qs({ fieldManager: manager }, query)}`, { body });
    },
    /** POST by `manager`. */
    post(path: string, manager: string | undefined, body: Obj, headers: Record<string, string> = {}) {
      return api('POST', `${path}${qs({ fieldManager: manager })}`, { body, headers });
    },
    async get(path: string): Promise<Obj & { metadata: Obj & { managedFields?: Obj[] } }> {
      const r = await api('GET', path);
      if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text}`);
      return r.json();
    },
  };
}

/** `manager/Operation[/subresource]` → fieldsV1 as JSON text, in managedFields order. */
export function owners(obj: { metadata?: { managedFields?: unknown } }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of (obj.metadata?.managedFields ?? []) as Obj[]) {
    const key = `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`;
    out[key] = JSON.stringify(e.fieldsV1);
  }
  return out;
}

export function configMap(name: string, data?: Record<string, string>, metadata: Obj = {}): Obj {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...metadata }, ...(data ? { data } : {}) };
}

export function serviceAccount(name: string, fields: Obj = {}, metadata: Obj = {}): Obj {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, ...metadata }, ...fields };
}

export function ownerRef(uid: string, extra: Obj = {}): Obj {
  return { apiVersion: 'v1', kind: 'ConfigMap', name: `owner-${uid}`, uid, ...extra };
}
