/**
 * kube's printer columns of HorizontalPodAutoscalers (`printHorizontalPodAutoscaler`, v1.32):
 * `Name`, `Reference` (kind/name), `Targets` (current/target per metric, two at most), `MinPods`,
 * `MaxPods`, `Replicas`, `Age`. kube prints the internal (v2) form, so v1 objects are printed
 * through their v2 conversion.
 */
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import { AGE_SPEC, declarativeTableColumns } from '../table/declarative-columns.js';
import type { TableColumns } from '../table/table-types.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
const q = (v: unknown): string => (typeof v === 'string' ? v : '0');

function current(statuses: Obj[], i: number, key: string): Obj | undefined {
  const s = statuses[i];
  return s && isPlainObject(s[key]) ? obj(obj(s[key]).current) : undefined;
}

function resourceTarget(spec: Obj, statuses: Obj[], i: number, key: string): string {
  const src = obj(spec[key]);
  const target = obj(src.target);
  const name = typeof src.name === 'string' ? src.name : '';
  const c = current(statuses, i, key);
  if (target.averageValue !== undefined && target.averageValue !== null) {
    return `${name}: ${c ? q(c.averageValue) : '<unknown>'}/${q(target.averageValue)}`;
  }
  const now = c && typeof c.averageUtilization === 'number' ? `${c.averageUtilization}%` : '<unknown>';
  const want = typeof target.averageUtilization === 'number' ? `${target.averageUtilization}%` : '<auto>';
  return `${name}: ${now}/${want}`;
}

function valueTarget(spec: Obj, statuses: Obj[], i: number, key: string): string {
  const target = obj(obj(spec[key]).target);
  const c = current(statuses, i, key);
  if (target.averageValue !== undefined && target.averageValue !== null) {
    const now = c && c.averageValue !== undefined && c.averageValue !== null ? q(c.averageValue) : '<unknown>';
    return `${now}/${q(target.averageValue)} (avg)`;
  }
  return `${c ? q(c.value) : '<unknown>'}/${q(target.value)}`;
}

/** kube's `formatHPAMetrics`. */
export function formatHpaMetrics(specs: Obj[], statuses: Obj[]): string {
  if (specs.length === 0) return '<none>';
  const items = specs.map((spec, i) => {
    switch (spec.type) {
      case 'External':
        return valueTarget(spec, statuses, i, 'external');
      case 'Object':
        return valueTarget(spec, statuses, i, 'object');
      case 'Pods': {
        const c = current(statuses, i, 'pods');
        return `${c ? q(c.averageValue) : '<unknown>'}/${q(obj(obj(spec.pods).target).averageValue)}`;
      }
      case 'Resource':
        return resourceTarget(spec, statuses, i, 'resource');
      case 'ContainerResource':
        return resourceTarget(spec, statuses, i, 'containerResource');
      default:
        return '<unknown type>';
    }
  });
  const max = 2;
  return items.length > max ? `${items.slice(0, max).join(', ')} + ${items.length - max} more...` : items.join(', ');
}

/** The HPA columns; `toV2` gives the v2 form of a served object (identity for v2). */
export function hpaTableColumns(toV2: (obj: ApiObject) => ApiObject): TableColumns {
  // `maxReplicas` and `currentReplicas` sit at the same paths in v1 and v2.
  return declarativeTableColumns([
    {
      name: 'Reference',
      type: 'string',
      description: 'The kind and name of the object the autoscaler scales.',
      cell: (served) => {
        const ref = obj(obj(served.spec).scaleTargetRef);
        return `${typeof ref.kind === 'string' ? ref.kind : ''}/${typeof ref.name === 'string' ? ref.name : ''}`;
      },
    },
    {
      name: 'Targets',
      type: 'string',
      description: 'Current and target values of the autoscaler metrics.',
      cell: (served) => {
        const hpa = toV2(served);
        return formatHpaMetrics(list(obj(hpa.spec).metrics), list(obj(hpa.status).currentMetrics));
      },
    },
    {
      name: 'MinPods',
      type: 'string',
      description: 'The fewest replicas the autoscaler scales down to.',
      cell: (served) => {
        const min = obj(served.spec).minReplicas;
        return typeof min === 'number' ? String(min) : '<unset>';
      },
    },
    {
      name: 'MaxPods',
      type: 'string',
      description: 'The most replicas the autoscaler scales up to.',
      jsonPath: '.spec.maxReplicas',
      readAs: 'integer',
      zero: 0,
    },
    {
      name: 'Replicas',
      type: 'string',
      description: 'The number of replicas the autoscaler last saw.',
      jsonPath: '.status.currentReplicas',
      readAs: 'integer',
      zero: 0,
    },
    AGE_SPEC,
  ]);
}
