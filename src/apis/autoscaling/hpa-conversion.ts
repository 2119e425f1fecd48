/**
 * HorizontalPodAutoscaler between autoscaling/v1 and autoscaling/v2 (the storage version), as
 * kube-apiserver v1.32 converts it: v1's `targetCPUUtilizationPercentage` is v2's CPU
 * utilization metric and `currentCPUUtilizationPercentage` its current value; everything v1
 * cannot hold (the other metrics, all current metrics, the conditions and the behavior) travels
 * in `autoscaling.alpha.<domain>/…` annotations of the v1 object, in kube's JSON forms, and comes
 * back into the fields on the way to v2 (malformed annotations are ignored). A v1 object with no
 * metric at all stands for kube's implicit 80% CPU target. Pure; objects are plain JSON.
 */
import type { ApiDomain } from '../api-domain.js';
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const set = (v: unknown): boolean => v !== undefined && v !== null;

/** kube's implicit CPU utilization target of an autoscaler without metrics. */
export const DEFAULT_CPU_UTILIZATION = 80;

/** The round-trip annotations of a domain profile. */
export interface HpaAnnotations {
  readonly metrics: string;
  readonly currentMetrics: string;
  readonly conditions: string;
  readonly behavior: string;
}

export function hpaAnnotations(domain: ApiDomain): HpaAnnotations {
  const key = (name: string) => domain.key('autoscaling.alpha', name);
  return {
    metrics: key('metrics'),
    currentMetrics: key('current-metrics'),
    conditions: key('conditions'),
    behavior: key('behavior'),
  };
}

/** Builds an object with keys in the given order, leaving out undefined values (Go's struct order and omitempty). */
function ordered(entries: [string, unknown][]): Obj {
  const out: Obj = {};
  for (const [k, v] of entries) if (v !== undefined) out[k] = v;
  return out;
}

const quantityOrZero = (v: unknown): unknown => (set(v) ? v : '0');
const optional = (v: unknown): unknown => (set(v) ? v : undefined);

function labelSelectorJson(v: unknown): unknown {
  if (!isPlainObject(v)) return undefined;
  const expressions = list(v.matchExpressions).map((e) =>
    ordered([
      ['key', obj(e).key ?? ''],
      ['operator', obj(e).operator ?? ''],
      ['values', list(obj(e).values).length > 0 ? obj(e).values : undefined],
    ]),
  );
  return ordered([
    ['matchLabels', isPlainObject(v.matchLabels) && Object.keys(v.matchLabels).length > 0 ? v.matchLabels : undefined],
    ['matchExpressions', expressions.length > 0 ? expressions : undefined],
  ]);
}

function refJson(v: unknown): Obj {
  const r = obj(v);
  return ordered([
    ['kind', r.kind ?? ''],
    ['name', r.name ?? ''],
    ['apiVersion', r.apiVersion ? r.apiVersion : undefined],
  ]);
}

function isCpuUtilization(m: Obj): boolean {
  const resource = obj(m.resource);
  return (
    m.type === 'Resource' &&
    isPlainObject(m.resource) &&
    resource.name === 'cpu' &&
    set(obj(resource.target).averageUtilization)
  );
}

/** A v2 metric spec as v1's `MetricSpec` JSON. */
function metricSpecToV1(m: Obj): Obj {
  const out: [string, unknown][] = [['type', m.type ?? '']];
  if (isPlainObject(m.object)) {
    const t = obj(m.object.target);
    out.push([
      'object',
      ordered([
        ['target', refJson(m.object.describedObject)],
        ['metricName', obj(m.object.metric).name ?? ''],
        ['targetValue', quantityOrZero(t.value)],
        ['selector', labelSelectorJson(obj(m.object.metric).selector)],
        ['averageValue', optional(t.averageValue)],
      ]),
    ]);
  }
  if (isPlainObject(m.pods)) {
    out.push([
      'pods',
      ordered([
        ['metricName', obj(m.pods.metric).name ?? ''],
        ['targetAverageValue', quantityOrZero(obj(m.pods.target).averageValue)],
        ['selector', labelSelectorJson(obj(m.pods.metric).selector)],
      ]),
    ]);
  }
  for (const key of ['resource', 'containerResource']) {
    const r = m[key];
    if (!isPlainObject(r)) continue;
    const t = obj(r.target);
    out.push([
      key,
      ordered([
        ['name', r.name ?? ''],
        ['targetAverageUtilization', optional(t.averageUtilization)],
        ['targetAverageValue', optional(t.averageValue)],
        ['container', key === 'containerResource' ? (r.container ?? '') : undefined],
      ]),
    ]);
  }
  if (isPlainObject(m.external)) {
    const t = obj(m.external.target);
    out.push([
      'external',
      ordered([
        ['metricName', obj(m.external.metric).name ?? ''],
        ['metricSelector', labelSelectorJson(obj(m.external.metric).selector)],
        ['targetValue', optional(t.value)],
        ['targetAverageValue', optional(t.averageValue)],
      ]),
    ]);
  }
  return ordered(out);
}

/** v1's `MetricSpec` JSON as a v2 metric spec. */
function metricSpecToV2(m: Obj): Obj {
  const out: [string, unknown][] = [['type', m.type ?? '']];
  const identifier = (src: Obj, selectorKey: string) =>
    ordered([
      ['name', src.metricName ?? ''],
      ['selector', labelSelectorJson(src[selectorKey])],
    ]);
  if (isPlainObject(m.object)) {
    const o = m.object;
    out.push([
      'object',
      ordered([
        ['describedObject', refJson(o.target)],
        [
          'target',
          ordered([
            ['type', set(o.averageValue) ? 'AverageValue' : 'Value'],
            ['value', quantityOrZero(o.targetValue)],
            ['averageValue', optional(o.averageValue)],
          ]),
        ],
        ['metric', identifier(o, 'selector')],
      ]),
    ]);
  }
  if (isPlainObject(m.pods)) {
    out.push([
      'pods',
      ordered([
        ['metric', identifier(m.pods, 'selector')],
        [
          'target',
          ordered([
            ['type', 'AverageValue'],
            ['averageValue', quantityOrZero(m.pods.targetAverageValue)],
          ]),
        ],
      ]),
    ]);
  }
  for (const key of ['resource', 'containerResource']) {
    const r = m[key];
    if (!isPlainObject(r)) continue;
    out.push([
      key,
      ordered([
        ['name', r.name ?? ''],
        [
          'target',
          ordered([
            ['type', set(r.targetAverageUtilization) ? 'Utilization' : 'AverageValue'],
            ['averageUtilization', optional(r.targetAverageUtilization)],
            ['averageValue', optional(r.targetAverageValue)],
          ]),
        ],
        ['container', key === 'containerResource' ? (r.container ?? '') : undefined],
      ]),
    ]);
  }
  if (isPlainObject(m.external)) {
    const e = m.external;
    out.push([
      'external',
      ordered([
        ['metric', identifier(e, 'metricSelector')],
        [
          'target',
          ordered([
            ['type', set(e.targetValue) ? 'Value' : 'AverageValue'],
            ['value', optional(e.targetValue)],
            ['averageValue', optional(e.targetAverageValue)],
          ]),
        ],
      ]),
    ]);
  }
  return ordered(out);
}

/** A v2 metric status as v1's `MetricStatus` JSON. */
function metricStatusToV1(m: Obj): Obj {
  const out: [string, unknown][] = [['type', m.type ?? '']];
  if (isPlainObject(m.object)) {
    const c = obj(m.object.current);
    out.push([
      'object',
      ordered([
        ['target', refJson(m.object.describedObject)],
        ['metricName', obj(m.object.metric).name ?? ''],
        ['currentValue', quantityOrZero(c.value)],
        ['selector', labelSelectorJson(obj(m.object.metric).selector)],
        ['averageValue', optional(c.averageValue)],
      ]),
    ]);
  }
  if (isPlainObject(m.pods)) {
    out.push([
      'pods',
      ordered([
        ['metricName', obj(m.pods.metric).name ?? ''],
        ['currentAverageValue', quantityOrZero(obj(m.pods.current).averageValue)],
        ['selector', labelSelectorJson(obj(m.pods.metric).selector)],
      ]),
    ]);
  }
  for (const key of ['resource', 'containerResource']) {
    const r = m[key];
    if (!isPlainObject(r)) continue;
    const c = obj(r.current);
    out.push([
      key,
      ordered([
        ['name', r.name ?? ''],
        ['currentAverageUtilization', optional(c.averageUtilization)],
        ['currentAverageValue', quantityOrZero(c.averageValue)],
        ['container', key === 'containerResource' ? (r.container ?? '') : undefined],
      ]),
    ]);
  }
  if (isPlainObject(m.external)) {
    const c = obj(m.external.current);
    out.push([
      'external',
      ordered([
        ['metricName', obj(m.external.metric).name ?? ''],
        ['metricSelector', labelSelectorJson(obj(m.external.metric).selector)],
        ['currentValue', quantityOrZero(c.value)],
        ['currentAverageValue', optional(c.averageValue)],
      ]),
    ]);
  }
  return ordered(out);
}

/** v1's `MetricStatus` JSON as a v2 metric status. */
function metricStatusToV2(m: Obj): Obj {
  const out: [string, unknown][] = [['type', m.type ?? '']];
  const identifier = (src: Obj, selectorKey: string) =>
    ordered([
      ['name', src.metricName ?? ''],
      ['selector', labelSelectorJson(src[selectorKey])],
    ]);
  if (isPlainObject(m.object)) {
    const o = m.object;
    out.push([
      'object',
      ordered([
        ['metric', identifier(o, 'selector')],
        [
          'current',
          ordered([
            ['value', quantityOrZero(o.currentValue)],
            ['averageValue', optional(o.averageValue)],
          ]),
        ],
        ['describedObject', refJson(o.target)],
      ]),
    ]);
  }
  if (isPlainObject(m.pods)) {
    out.push([
      'pods',
      ordered([
        ['metric', identifier(m.pods, 'selector')],
        ['current', ordered([['averageValue', quantityOrZero(m.pods.currentAverageValue)]])],
      ]),
    ]);
  }
  for (const key of ['resource', 'containerResource']) {
    const r = m[key];
    if (!isPlainObject(r)) continue;
    out.push([
      key,
      ordered([
        ['name', r.name ?? ''],
        [
          'current',
          ordered([
            ['averageValue', quantityOrZero(r.currentAverageValue)],
            ['averageUtilization', optional(r.currentAverageUtilization)],
          ]),
        ],
        ['container', key === 'containerResource' ? (r.container ?? '') : undefined],
      ]),
    ]);
  }
  if (isPlainObject(m.external)) {
    const e = m.external;
    out.push([
      'external',
      ordered([
        ['metric', identifier(e, 'metricSelector')],
        [
          'current',
          ordered([
            ['value', quantityOrZero(e.currentValue)],
            ['averageValue', optional(e.currentAverageValue)],
          ]),
        ],
      ]),
    ]);
  }
  return ordered(out);
}

/** A condition as v1's JSON (Go writes a zero `lastTransitionTime` as `null`). */
function conditionJson(c: unknown): Obj {
  const o = obj(c);
  return ordered([
    ['type', o.type ?? ''],
    ['status', o.status ?? ''],
    ['lastTransitionTime', set(o.lastTransitionTime) ? o.lastTransitionTime : null],
    ['reason', o.reason ? o.reason : undefined],
    ['message', o.message ? o.message : undefined],
  ]);
}

/** The behavior as kube marshals its internal type: Go field names, nil pointers and slices as `null`. */
function behaviorToGoJson(behavior: Obj): Obj {
  const rules = (r: unknown) => {
    if (!isPlainObject(r)) return null;
    return {
      StabilizationWindowSeconds: set(r.stabilizationWindowSeconds) ? r.stabilizationWindowSeconds : null,
      SelectPolicy: set(r.selectPolicy) ? r.selectPolicy : null,
      Policies: Array.isArray(r.policies)
        ? r.policies.map((p) => ({
            Type: obj(p).type ?? '',
            Value: obj(p).value ?? 0,
            PeriodSeconds: obj(p).periodSeconds ?? 0,
          }))
        : null,
    };
  };
  return { ScaleUp: rules(behavior.scaleUp), ScaleDown: rules(behavior.scaleDown) };
}

/** A field of a Go-JSON object as `encoding/json` finds it: exactly, else ignoring case. */
function goField(o: Obj, name: string): unknown {
  if (Object.hasOwn(o, name)) return o[name];
  const key = Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : o[key];
}

/** The v2 behavior from the annotation; undefined when it is not well formed or is empty. */
function behaviorFromGoJson(text: string): Obj | undefined {
  const parsed = parseJson(text);
  if (!isPlainObject(parsed)) return undefined;
  const rules = (r: unknown): Obj | undefined => {
    if (!isPlainObject(r)) return undefined;
    const policies = goField(r, 'Policies');
    return ordered([
      ['stabilizationWindowSeconds', optional(goField(r, 'StabilizationWindowSeconds'))],
      ['selectPolicy', optional(goField(r, 'SelectPolicy'))],
      [
        'policies',
        Array.isArray(policies)
          ? policies.map((p) => ({
              type: goField(obj(p), 'Type') ?? '',
              value: goField(obj(p), 'Value') ?? 0,
              periodSeconds: goField(obj(p), 'PeriodSeconds') ?? 0,
            }))
          : undefined,
      ],
    ]);
  };
  const behavior = ordered([
    ['scaleUp', rules(goField(parsed, 'ScaleUp'))],
    ['scaleDown', rules(goField(parsed, 'ScaleDown'))],
  ]);
  return Object.keys(behavior).length > 0 ? behavior : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** kube's `DropRoundTripHorizontalPodAutoscalerAnnotations`: metadata without the round-trip annotations. */
function withoutRoundTrip(meta: ApiObject['metadata'], keys: HpaAnnotations): ApiObject['metadata'] {
  const annotations = meta.annotations;
  const names = [keys.metrics, keys.currentMetrics, keys.conditions, keys.behavior];
  if (!annotations || !names.some((k) => Object.hasOwn(annotations, k))) return { ...meta };
  const kept = Object.fromEntries(Object.entries(annotations).filter(([k]) => !names.includes(k)));
  const out: ApiObject['metadata'] = { ...meta, annotations: kept };
  if (Object.keys(kept).length === 0) delete out.annotations;
  return out;
}

/** An autoscaling/v2 HorizontalPodAutoscaler as autoscaling/v1 shows it. */
export function hpaV2ToV1(v2: ApiObject, keys: HpaAnnotations): ApiObject {
  const spec = obj(v2.spec);
  const status = obj(v2.status);
  const metrics = list(spec.metrics).map(obj);
  const cpu = metrics.find((m) => m.type === 'Resource' && isPlainObject(m.resource) && obj(m.resource).name === 'cpu');
  const v1Spec = ordered([
    ['scaleTargetRef', refJson(spec.scaleTargetRef)],
    ['minReplicas', optional(spec.minReplicas)],
    ['maxReplicas', spec.maxReplicas ?? 0],
    ['targetCPUUtilizationPercentage', cpu ? optional(obj(obj(cpu.resource).target).averageUtilization) : undefined],
  ]);
  const current = list(status.currentMetrics).map(obj);
  let currentCpu: unknown;
  for (const m of current) {
    if (
      m.type === 'Resource' &&
      obj(m.resource).name === 'cpu' &&
      set(obj(obj(m.resource).current).averageUtilization)
    ) {
      currentCpu = obj(obj(m.resource).current).averageUtilization;
    }
  }
  const v1Status = ordered([
    ['observedGeneration', optional(status.observedGeneration)],
    ['lastScaleTime', optional(status.lastScaleTime)],
    ['currentReplicas', status.currentReplicas ?? 0],
    ['desiredReplicas', status.desiredReplicas ?? 0],
    ['currentCPUUtilizationPercentage', currentCpu],
  ]);
  const metadata = withoutRoundTrip(v2.metadata, keys);
  const added: Record<string, string> = {};
  const others = metrics.filter((m) => !isCpuUtilization(m)).map(metricSpecToV1);
  if (others.length > 0) added[keys.metrics] = JSON.stringify(others);
  if (current.length > 0) added[keys.currentMetrics] = JSON.stringify(current.map(metricStatusToV1));
  const conditions = list(status.conditions);
  if (conditions.length > 0) added[keys.conditions] = JSON.stringify(conditions.map(conditionJson));
  if (isPlainObject(spec.behavior)) added[keys.behavior] = JSON.stringify(behaviorToGoJson(spec.behavior));
  if (Object.keys(added).length > 0) metadata.annotations = { ...(metadata.annotations ?? {}), ...added };
  const out: ApiObject = { ...v2, apiVersion: 'autoscaling/v1', metadata, spec: v1Spec };
  if (v2.status !== undefined) out.status = v1Status;
  return out;
}

function annotationList(meta: ApiObject['metadata'], key: string): Obj[] | undefined {
  const text = meta.annotations?.[key];
  if (text === undefined) return undefined;
  const parsed = parseJson(text);
  return Array.isArray(parsed) ? parsed.map(obj) : undefined;
}

/** An autoscaling/v1 HorizontalPodAutoscaler as autoscaling/v2 holds it. */
export function hpaV1ToV2(v1: ApiObject, keys: HpaAnnotations): ApiObject {
  const spec = obj(v1.spec);
  const status = obj(v1.status);
  const meta = v1.metadata;
  let metrics: Obj[] = [];
  if (set(spec.targetCPUUtilizationPercentage)) {
    metrics.push({
      type: 'Resource',
      resource: {
        name: 'cpu',
        target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage },
      },
    });
  }
  const others = annotationList(meta, keys.metrics);
  if (others) metrics = [...others.map(metricSpecToV2), ...metrics];
  if (metrics.length === 0) {
    metrics.push({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } },
    });
  }
  const behaviorText = meta.annotations?.[keys.behavior];
  const behavior = behaviorText === undefined ? undefined : behaviorFromGoJson(behaviorText);
  const v2Spec = ordered([
    ['scaleTargetRef', refJson(spec.scaleTargetRef)],
    ['minReplicas', optional(spec.minReplicas)],
    ['maxReplicas', spec.maxReplicas ?? 0],
    ['metrics', metrics],
    ['behavior', behavior],
  ]);
  let currentMetrics: Obj[] | undefined;
  if (set(status.currentCPUUtilizationPercentage)) {
    currentMetrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } },
      },
    ];
  }
  const annotated = annotationList(meta, keys.currentMetrics);
  if (annotated) currentMetrics = annotated.map(metricStatusToV2);
  const conditions = annotationList(meta, keys.conditions);
  const v2Status = ordered([
    ['observedGeneration', optional(status.observedGeneration)],
    ['lastScaleTime', optional(status.lastScaleTime)],
    ['currentReplicas', status.currentReplicas ? status.currentReplicas : undefined],
    ['desiredReplicas', status.desiredReplicas ?? 0],
    ['currentMetrics', currentMetrics && currentMetrics.length > 0 ? currentMetrics : undefined],
    [
      'conditions',
      conditions && conditions.length > 0
        ? conditions.map((c) =>
            ordered([
              ['type', c.type ?? ''],
              ['status', c.status ?? ''],
              ['lastTransitionTime', optional(c.lastTransitionTime)],
              ['reason', c.reason || undefined],
              ['message', c.message || undefined],
            ]),
          )
        : undefined,
    ],
  ]);
  const out: ApiObject = { ...v1, apiVersion: 'autoscaling/v2', metadata: withoutRoundTrip(meta, keys), spec: v2Spec };
  if (v1.status !== undefined) out.status = v2Status;
  return out;
}
