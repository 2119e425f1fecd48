/**
 * HorizontalPodAutoscaler: autoscaling/v2 is the hub; autoscaling/v1 converts both ways through
 * the server's own conversion (its round-trip annotations keep what v1 cannot hold);
 * autoscaling/v2beta2 has v2's shape; autoscaling/v2beta1's flat metric fields become v2's
 * `metric` / `target` / `current` structures, as kube converts them (`targetAverageUtilization`
 * becomes `target.averageUtilization` with `target.type: Utilization`, and so on).
 */
import type { ApiDomain } from '../api-domain.js';
import { hpaAnnotations, hpaV1ToV2, hpaV2ToV1 } from '../autoscaling/hpa-conversion.js';
import type { ApiObject } from '../object.js';
import { cloneJson } from '../schema/json-value.js';
import type { ConvertFn, KindFamily } from './conversion-types.js';
import { isSet, type Obj, obj } from './json-helpers.js';

/** Builds an object from entries, leaving out unset values. */
function fields(entries: [string, unknown][]): Obj {
  const out: Obj = {};
  for (const [k, v] of entries) if (isSet(v)) out[k] = v;
  return out;
}

function metricId(name: unknown, selector: unknown): Obj {
  return fields([
    ['name', name ?? ''],
    ['selector', selector],
  ]);
}

/** A v2beta1 resource target: `Utilization` when a utilization is set, else `AverageValue`, as kube picks. */
function resourceTarget(utilization: unknown, averageValue: unknown): Obj {
  return fields([
    ['type', isSet(utilization) ? 'Utilization' : 'AverageValue'],
    ['averageUtilization', utilization],
    ['averageValue', averageValue],
  ]);
}

function metricSpecToV2(m: Obj): Obj {
  switch (m.type) {
    case 'Object': {
      const s = obj(m.object);
      const target = isSet(s.averageValue)
        ? fields([
            ['type', 'AverageValue'],
            ['value', s.targetValue],
            ['averageValue', s.averageValue],
          ])
        : fields([
            ['type', 'Value'],
            ['value', s.targetValue],
          ]);
      return {
        type: 'Object',
        object: { describedObject: s.target ?? {}, target, metric: metricId(s.metricName, s.selector) },
      };
    }
    case 'Pods': {
      const s = obj(m.pods);
      return {
        type: 'Pods',
        pods: {
          metric: metricId(s.metricName, s.selector),
          target: fields([
            ['type', 'AverageValue'],
            ['averageValue', s.targetAverageValue],
          ]),
        },
      };
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const s = obj(m[key]);
      return {
        type: m.type,
        [key]: fields([
          ['name', s.name ?? ''],
          ['container', s.container],
          ['target', resourceTarget(s.targetAverageUtilization, s.targetAverageValue)],
        ]),
      };
    }
    case 'External': {
      const s = obj(m.external);
      const target = fields([
        ['type', isSet(s.targetValue) ? 'Value' : 'AverageValue'],
        ['value', s.targetValue],
        ['averageValue', s.targetAverageValue],
      ]);
      return { type: 'External', external: { metric: metricId(s.metricName, s.metricSelector), target } };
    }
    default:
      return m;
  }
}

function metricStatusToV2(m: Obj): Obj {
  switch (m.type) {
    case 'Object': {
      const s = obj(m.object);
      return {
        type: 'Object',
        object: {
          metric: metricId(s.metricName, s.selector),
          current: fields([
            ['value', s.currentValue],
            ['averageValue', s.averageValue],
          ]),
          describedObject: s.target ?? {},
        },
      };
    }
    case 'Pods': {
      const s = obj(m.pods);
      return {
        type: 'Pods',
        pods: {
          metric: metricId(s.metricName, s.selector),
          current: fields([['averageValue', s.currentAverageValue]]),
        },
      };
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const s = obj(m[key]);
      return {
        type: m.type,
        [key]: fields([
          ['name', s.name ?? ''],
          ['container', s.container],
          [
            'current',
            fields([
              ['averageValue', s.currentAverageValue],
              ['averageUtilization', s.currentAverageUtilization],
            ]),
          ],
        ]),
      };
    }
    case 'External': {
      const s = obj(m.external);
      return {
        type: 'External',
        external: {
          metric: metricId(s.metricName, s.metricSelector),
          current: fields([
            ['value', s.currentValue],
            ['averageValue', s.currentAverageValue],
          ]),
        },
      };
    }
    default:
      return m;
  }
}

const v2beta1ToV2: ConvertFn = (o) => {
  const out = cloneJson(o);
  out.apiVersion = 'autoscaling/v2';
  if (isSet(out.spec)) {
    const spec = { ...obj(out.spec) };
    if (Array.isArray(spec.metrics)) spec.metrics = spec.metrics.map((m) => metricSpecToV2(obj(m)));
    out.spec = spec;
  }
  if (isSet(out.status)) {
    const status = { ...obj(out.status) };
    if (Array.isArray(status.currentMetrics))
      status.currentMetrics = status.currentMetrics.map((m) => metricStatusToV2(obj(m)));
    out.status = status;
  }
  return out;
};

const v2beta2ToV2: ConvertFn = (o) => ({ ...cloneJson(o), apiVersion: 'autoscaling/v2' });

/** HorizontalPodAutoscaler in autoscaling/v2 (hub), v1, and the removed v2beta1 and v2beta2. */
export function autoscalingFamilies(domain: ApiDomain): KindFamily[] {
  const keys = hpaAnnotations(domain);
  return [
    {
      kind: 'HorizontalPodAutoscaler',
      internal: 'autoscaling.HorizontalPodAutoscaler',
      served: [
        { group: 'autoscaling', version: 'v2' },
        {
          group: 'autoscaling',
          version: 'v1',
          toHub: (o: ApiObject) => hpaV1ToV2(o, keys),
          fromHub: (o: ApiObject) => hpaV2ToV1(o, keys),
        },
      ],
      removed: [
        { group: 'autoscaling', version: 'v2beta1', toHub: v2beta1ToV2 },
        { group: 'autoscaling', version: 'v2beta2', toHub: v2beta2ToV2 },
      ],
    },
  ];
}
