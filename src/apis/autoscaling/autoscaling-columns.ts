/**
 * kube's printer columns of HorizontalPodAutoscalers (`printHorizontalPodAutoscaler`, v1.32):
 * `Name`, `Reference` (kind/name), `Targets` (current/target per metric, two at most), `MinPods`,
 * `MaxPods`, `Replicas`, `Age`. kube prints the internal (v2) form, so v1 objects are printed
 * through their v2 conversion.
 */
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import { AGE_COLUMN, column, NAME_COLUMN, objectName, valueAt } from '../table/column-helpers.js';
import { translateTimestampSince } from '../table/human-duration.js';
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
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Reference', 'string', 'The kind and name of the object the autoscaler scales.'),
      column('Targets', 'string', 'Current and target values of the autoscaler metrics.'),
      column('MinPods', 'string', 'The fewest replicas the autoscaler scales down to.'),
      column('MaxPods', 'string', 'The most replicas the autoscaler scales up to.'),
      column('Replicas', 'string', 'The number of replicas the autoscaler last saw.'),
      AGE_COLUMN,
    ]),
    cells: (served: ApiObject, now: Date) => {
      const hpa = toV2(served);
      const spec = obj(hpa.spec);
      const status = obj(hpa.status);
      const ref = obj(spec.scaleTargetRef);
      return [
        objectName(served),
        `${typeof ref.kind === 'string' ? ref.kind : ''}/${typeof ref.name === 'string' ? ref.name : ''}`,
        formatHpaMetrics(list(spec.metrics), list(status.currentMetrics)),
        typeof spec.minReplicas === 'number' ? String(spec.minReplicas) : '<unset>',
        typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0,
        typeof status.currentReplicas === 'number' ? status.currentReplicas : 0,
        translateTimestampSince(valueAt(served, 'metadata', 'creationTimestamp'), now),
      ];
    },
  });
}
