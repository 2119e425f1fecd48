/**
 * HorizontalPodAutoscaler rules as kube-apiserver v1.32 applies them, on the autoscaling/v2
 * form (v1 objects are converted first, so their errors carry v2 paths, as kube's validation
 * of the internal type does): v2 defaults (one minimum replica, 80% CPU when no metric, the
 * behavior's unset rules filled), `ValidateHorizontalPodAutoscaler(Update)` (HPAScaleToZero off,
 * so `minReplicas` ≥ 1 unless the old object had 0) and the status rules.
 */
import { goScalar } from '../apps/go-values.js';
import { validateNonnegative } from '../apps/workload-validation.js';
import { type FieldError, fieldErrors, invalidShown, notSupportedShown } from '../meta/field-error.js';
import { isDNS1123Label, isQualifiedName, isValidPathSegmentName } from '../meta/name-validation.js';
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import { DEFAULT_CPU_UTILIZATION } from './hpa-conversion.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const set = (v: unknown): boolean => v !== undefined && v !== null;

/** kube's default scale-up rules (`GenerateHPAScaleUpRules`). */
const SCALE_UP = (): Obj => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
});
/** kube's default scale-down rules (no stabilization window: the controller's flag decides). */
const SCALE_DOWN = (): Obj => ({ selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });

function fillRules(rules: unknown, defaults: Obj): Obj {
  const r = obj(rules);
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies']) if (set(r[key])) defaults[key] = r[key];
  return defaults;
}

/** `SetDefaults_HorizontalPodAutoscaler` of autoscaling/v2, in place. */
export function defaultHpaV2(hpa: ApiObject): void {
  if (!isPlainObject(hpa.spec)) hpa.spec = {};
  const spec = hpa.spec as Obj;
  spec.minReplicas ??= 1;
  if (list(spec.metrics).length === 0) {
    spec.metrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } },
      },
    ];
  }
  if (isPlainObject(spec.behavior)) {
    spec.behavior = {
      scaleUp: fillRules(spec.behavior.scaleUp, SCALE_UP()),
      scaleDown: fillRules(spec.behavior.scaleDown, SCALE_DOWN()),
    };
  }
}

/** `SetDefaults_HorizontalPodAutoscaler` of autoscaling/v1, in place. */
export function defaultHpaV1(hpa: ApiObject): void {
  if (!isPlainObject(hpa.spec)) hpa.spec = {};
  (hpa.spec as Obj).minReplicas ??= 1;
}

/** The sign of a quantity string (kube's `Quantity.Sign`); 0 for what does not parse. */
export function quantitySign(q: unknown): -1 | 0 | 1 {
  if (typeof q !== 'string') return 0;
  const m = /^([+-]?)([0-9]*\.?[0-9]*)/.exec(q);
  if (!m || !/[1-9]/.test(m[2])) return 0;
  return m[1] === '-' ? -1 : 1;
}

function validateRef(ref: unknown, path: string): FieldError[] {
  const r = obj(ref);
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name']) {
    const v = typeof r[f] === 'string' ? (r[f] as string) : '';
    if (v === '') errs.push(fieldErrors.required(`${path}.${f}`));
    else for (const msg of isValidPathSegmentName(v)) errs.push(fieldErrors.invalid(`${path}.${f}`, v, msg));
  }
  return errs;
}

function validateTarget(t: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!t.type) errs.push(fieldErrors.required(`${path}.type`, 'must specify a metric target type'));
  if (t.type !== 'Utilization' && t.type !== 'Value' && t.type !== 'AverageValue') {
    errs.push(
      invalidShown(`${path}.type`, goScalar(t.type ?? ''), 'must be either Utilization, Value, or AverageValue'),
    );
  }
  if (set(t.value) && quantitySign(t.value) !== 1)
    errs.push(invalidShown(`${path}.value`, String(t.value), 'must be positive'));
  if (set(t.averageValue) && quantitySign(t.averageValue) !== 1) {
    errs.push(invalidShown(`${path}.averageValue`, String(t.averageValue), 'must be positive'));
  }
  if (typeof t.averageUtilization === 'number' && t.averageUtilization < 1) {
    errs.push(invalidShown(`${path}.averageUtilization`, goScalar(t.averageUtilization), 'must be greater than 0'));
  }
  return errs;
}

function validateIdentifier(id: unknown, path: string): FieldError[] {
  const name = typeof obj(id).name === 'string' ? (obj(id).name as string) : '';
  if (name === '') return [fieldErrors.required(`${path}.name`, 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => fieldErrors.invalid(`${path}.name`, name, msg));
}

function validateResourceLike(src: Obj, path: string, container: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof src.name === 'string' ? src.name : '';
  if (name === '') errs.push(fieldErrors.required(`${path}.name`, 'must specify a resource name'));
  else if (container) {
    for (const msg of isQualifiedName(name)) errs.push(fieldErrors.invalid(`${path}.name`, name, msg));
  }
  if (container) {
    const c = typeof src.container === 'string' ? src.container : '';
    if (c === '') errs.push(fieldErrors.required(`${path}.container`, 'must specify a container'));
    else for (const msg of isDNS1123Label(c)) errs.push(fieldErrors.invalid(`${path}.container`, c, msg));
  }
  const t = obj(src.target);
  errs.push(...validateTarget(t, `${path}.target`));
  if (!set(t.averageUtilization) && !set(t.averageValue)) {
    errs.push(
      fieldErrors.required(
        `${path}.target.averageUtilization`,
        'must set either a target raw value or a target utilization',
      ),
    );
  }
  if (set(t.averageUtilization) && set(t.averageValue)) {
    errs.push(
      fieldErrors.forbidden(
        `${path}.target.averageValue`,
        'may not set both a target raw value and a target utilization',
      ),
    );
  }
  return errs;
}

const SOURCES = ['object', 'pods', 'resource', 'containerResource', 'external'];
const SOURCE_TYPES: Record<string, string> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
};
const SOURCE_TYPE_LIST = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];

function validateSource(key: string, src: Obj, path: string): FieldError[] {
  switch (key) {
    case 'object': {
      const t = obj(src.target);
      const errs = [
        ...validateRef(src.describedObject, `${path}.describedObject`),
        ...validateIdentifier(src.metric, `${path}.metric`),
        ...validateTarget(t, `${path}.target`),
      ];
      if (!set(t.value) && !set(t.averageValue)) {
        errs.push(
          fieldErrors.required(`${path}.target.averageValue`, 'must set either a target value or averageValue'),
        );
      }
      return errs;
    }
    case 'external': {
      const t = obj(src.target);
      const errs = [...validateIdentifier(src.metric, `${path}.metric`), ...validateTarget(t, `${path}.target`)];
      if (!set(t.value) && !set(t.averageValue)) {
        errs.push(
          fieldErrors.required(
            `${path}.target.averageValue`,
            'must set either a target value for metric or a per-pod target',
          ),
        );
      }
      if (set(t.value) && set(t.averageValue)) {
        errs.push(
          fieldErrors.forbidden(
            `${path}.target.value`,
            'may not set both a target value for metric and a per-pod target',
          ),
        );
      }
      return errs;
    }
    case 'pods': {
      const t = obj(src.target);
      const errs = [...validateIdentifier(src.metric, `${path}.metric`), ...validateTarget(t, `${path}.target`)];
      if (!set(t.averageValue))
        errs.push(fieldErrors.required(`${path}.target.averageValue`, 'must specify a positive target averageValue'));
      return errs;
    }
    default:
      return validateResourceLike(src, path, key === 'containerResource');
  }
}

function validateMetric(m: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeof m.type === 'string' ? m.type : '';
  if (type === '') errs.push(fieldErrors.required(`${path}.type`, 'must specify a metric source type'));
  const expected = SOURCE_TYPES[type];
  if (!expected) errs.push(notSupportedShown(`${path}.type`, goScalar(type), SOURCE_TYPE_LIST));
  const present = SOURCES.filter((k) => isPlainObject(m[k]));
  if (present.length > 0) errs.push(...validateSource(present[0], obj(m[present[0]]), `${path}.${present[0]}`));
  if (expected && !present.includes(expected)) {
    errs.push(fieldErrors.required(`${path}.${expected}`, 'must populate information for the given metric source'));
  }
  if (present.length > 1) {
    for (const k of present)
      if (k !== expected)
        errs.push(fieldErrors.forbidden(`${path}.${k}`, 'must populate the given metric source only'));
  }
  return errs;
}

function validateRules(rules: unknown, path: string): FieldError[] {
  if (!isPlainObject(rules)) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0) {
    errs.push(
      invalidShown(`${path}.stabilizationWindowSeconds`, goScalar(window), 'must be greater than or equal to zero'),
    );
  }
  if (typeof window === 'number' && window > 3600) {
    errs.push(
      invalidShown(`${path}.stabilizationWindowSeconds`, goScalar(window), 'must be less than or equal to 3600'),
    );
  }
  if (set(rules.selectPolicy) && !['Disabled', 'Max', 'Min'].includes(String(rules.selectPolicy))) {
    errs.push(notSupportedShown(`${path}.selectPolicy`, goScalar(rules.selectPolicy), ['Disabled', 'Max', 'Min']));
  }
  const policies = list(rules.policies);
  if (policies.length === 0) errs.push(fieldErrors.required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const policy = obj(p);
    const pp = `${path}.policies[${i}]`;
    if (policy.type !== 'Pods' && policy.type !== 'Percent')
      errs.push(notSupportedShown(`${pp}.type`, goScalar(policy.type ?? ''), ['Percent', 'Pods']));
    const value = typeof policy.value === 'number' ? policy.value : 0;
    if (value <= 0) errs.push(invalidShown(`${pp}.value`, goScalar(value), 'must be greater than zero'));
    const period = typeof policy.periodSeconds === 'number' ? policy.periodSeconds : 0;
    if (period <= 0) errs.push(invalidShown(`${pp}.periodSeconds`, goScalar(period), 'must be greater than zero'));
    if (period > 1800)
      errs.push(invalidShown(`${pp}.periodSeconds`, goScalar(period), 'must be less than or equal to 1800'));
  });
  return errs;
}

/** `validateHorizontalPodAutoscalerSpec` of a v2 object; `minLowerBound` is 1 unless the old object had 0. */
export function validateHpaSpec(hpa: ApiObject, minLowerBound = 1): FieldError[] {
  const spec = obj(hpa.spec);
  const errs: FieldError[] = [];
  const min = spec.minReplicas;
  if (typeof min === 'number' && min < minLowerBound) {
    errs.push(invalidShown('spec.minReplicas', goScalar(min), `must be greater than or equal to ${minLowerBound}`));
  }
  const max = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  if (max < 1) errs.push(invalidShown('spec.maxReplicas', goScalar(max), 'must be greater than 0'));
  if (typeof min === 'number' && max < min)
    errs.push(invalidShown('spec.maxReplicas', goScalar(max), 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateRef(spec.scaleTargetRef, 'spec.scaleTargetRef'));
  const metrics = list(spec.metrics).map(obj);
  metrics.forEach((m, i) => {
    errs.push(...validateMetric(m, `spec.metrics[${i}]`));
  });
  if (min === 0 && !metrics.some((m) => m.type === 'Object' || m.type === 'External')) {
    errs.push(
      fieldErrors.forbidden(
        'spec.metrics',
        'must specify at least one Object or External metric to support scaling to zero replicas',
      ),
    );
  }
  if (isPlainObject(spec.behavior)) {
    errs.push(...validateRules(spec.behavior.scaleUp, 'spec.behavior.scaleUp'));
    errs.push(...validateRules(spec.behavior.scaleDown, 'spec.behavior.scaleDown'));
  }
  return errs;
}

/** The lower bound of `minReplicas` on update: 0 when the old object already had 0. */
export function minReplicasLowerBound(old: ApiObject): number {
  return obj(old.spec).minReplicas === 0 ? 0 : 1;
}

/** `ValidateHorizontalPodAutoscalerStatusUpdate` beyond metadata. */
export function validateHpaStatus(hpa: ApiObject): FieldError[] {
  const status = obj(hpa.status);
  return [
    ...validateNonnegative(status.currentReplicas, 'status.currentReplicas'),
    ...validateNonnegative(status.desiredReplicas, 'status.desiredReplicas'),
  ];
}
