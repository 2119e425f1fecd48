import { compareGoStrings } from '../../util/go-strings.js';
import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { AGE_COLUMN, column, describeField, NAME_COLUMN, objectName, valueAt } from '../table/column-helpers.js';
import { AGE_SPEC, declarativeTableColumns } from '../table/declarative-columns.js';
import { translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';
import type { Endpoints, Service, ServicePort } from './service-types.js';

/**
 * kube's printer columns of Services and Endpoints (what `kubectl get` shows). The server renders
 * them wide, as kube's server-side printer does.
 */

function age(obj: ApiObject, now: Date): string {
  return translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now);
}

/** kube's `labels.FormatLabels`: `k=v` pairs in key order, `<none>` when empty. */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort(compareGoStrings);
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels![k]}`).join(',');
}

/** kube's `makePortString`: `port/PROTO`, or `port:nodePort/PROTO`, joined by commas. */
export function servicePortsString(ports: readonly ServicePort[] | undefined): string {
  return (ports ?? [])
    .map((p) =>
      (p.nodePort ?? 0) > 0 ? `${p.port ?? 0}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port ?? 0}/${p.protocol ?? ''}`,
    )
    .join(',');
}

/** kube's `loadBalancerStatusStringer` (wide): the distinct IPs or hostnames, sorted, joined. */
export function loadBalancerAddresses(ingress: readonly { ip?: string; hostname?: string }[] | undefined): string {
  const set = new Set<string>();
  for (const point of ingress ?? []) {
    if (point.ip) set.add(point.ip);
    else if (point.hostname) set.add(point.hostname);
  }
  return [...set].sort(compareGoStrings).join(',');
}

/** kube's `getServiceExternalIP` (wide). */
export function serviceExternalIP(svc: Service): string {
  const spec = svc.spec ?? {};
  const external = spec.externalIPs ?? [];
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerAddresses(svc.status?.loadBalancer?.ingress);
      if (external.length > 0) return [...(lb ? lb.split(',') : []), ...external].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return spec.externalName ?? '';
  }
  return '<unknown>';
}

/**
 * Service: `Name`, `Type`, `Cluster-IP` (the first cluster IP, `<none>`), `External-IP`, `Port(s)`
 * (`<none>` when there are none), `Age`, and the wide `Selector`. Descriptions from the schema.
 */
export function serviceTableColumns(schema: Schema): TableColumns {
  // The schema's field documentation, else a description of Orch's own.
  const spec = (name: string, fallback: string) => describeField(schema, 'spec', name) || fallback;
  const svc = (obj: ApiObject) => obj as Service;
  return declarativeTableColumns([
    {
      name: 'Type',
      type: 'string',
      description: spec('type', 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.'),
      jsonPath: '.spec.type',
      zero: '',
    },
    {
      name: 'Cluster-IP',
      type: 'string',
      description: spec('clusterIP', 'The virtual IP address of the service inside the cluster.'),
      jsonPath: '.spec.clusterIPs[0]',
      zero: '<none>',
    },
    {
      name: 'External-IP',
      type: 'string',
      description: spec('externalIPs', 'Addresses outside the cluster that reach the service.'),
      cell: (obj) => serviceExternalIP(svc(obj)),
    },
    {
      name: 'Port(s)',
      type: 'string',
      description: spec('ports', 'The ports the service exposes.'),
      cell: (obj) => servicePortsString(svc(obj).spec?.ports) || '<none>',
    },
    AGE_SPEC,
    {
      name: 'Selector',
      type: 'string',
      description: spec('selector', 'The labels of the pods the service routes to.'),
      priority: 1,
      cell: (obj) => formatLabels(svc(obj).spec?.selector),
    },
  ]);
}

/** kube's `formatEndpoints` of all ports: up to three `ip:port` (or bare IPs), then `+ N more...`. */
export function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let more = false;
  let count = 0;
  const add = (text: string) => {
    if (list.length === max) more = true;
    else list.push(text);
  };
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const ports = ss.ports ?? [];
    if (ports.length === 0) {
      // Headless services may have no ports.
      count += addresses.length;
      for (const a of addresses) {
        add(a.ip ?? '');
        if (more) break;
      }
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) {
        const ip = a.ip ?? '';
        add(ip.includes(':') ? `[${ip}]:${port.port ?? 0}` : `${ip}:${port.port ?? 0}`);
        if (more) break;
      }
    }
  }
  const text = list.join(',');
  return more ? `${text} + ${count - max} more...` : text;
}

/** Endpoints: `Name`, `Endpoints`, `Age`. */
export function endpointsTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Endpoints', 'string', describeField(schema, 'subsets') || 'The addresses and ports backing the service.'),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => [objectName(obj), formatEndpoints(obj as Endpoints), age(obj, now)],
  });
}
