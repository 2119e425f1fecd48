/**
 * Workloads from apps/v1beta1, apps/v1beta2 and extensions/v1beta1 into apps/v1. The old versions
 * defaulted what apps/v1 requires or defaults differently; the conversion makes those old defaults
 * explicit so the object behaves as it did: the selector (and, in the oldest versions, the object's
 * labels) from the pod template's labels; extensions Deployments keep every revision and have no
 * progress deadline, roll one pod at a time; apps/v1beta1 keeps 2 revisions; extensions DaemonSets
 * and apps/v1beta1 StatefulSets update `OnDelete`. `rollbackTo` and `templateGeneration`, which
 * apps/v1 no longer has, are dropped.
 */
import type { ApiDomain } from '../api-domain.js';
import type { ApiObject } from '../object.js';
import type { ConvertFn, KindFamily } from './conversion-types.js';
import { defaultField, isSet, type Obj, obj, omit, withSpec } from './json-helpers.js';

/** Go's `math.MaxInt32`: apps/v1's spelling of "unlimited" revisions and "no" progress deadline. */
export const MAX_INT32 = 2147483647;

type OldVersion = 'extensions/v1beta1' | 'apps/v1beta1' | 'apps/v1beta2';

/** What each old version defaulted differently from apps/v1, per kind. */
interface OldDefaults {
  /** Selector and object labels came from the template's labels when unset. */
  readonly selectorFromTemplate: boolean;
  readonly labelsFromTemplate: boolean;
  readonly spec?: (spec: Obj) => Obj;
}

function templateLabels(spec: Obj): Record<string, string> | undefined {
  const labels = obj(obj(spec.template).metadata).labels;
  return isSet(labels) && Object.keys(obj(labels)).length > 0 ? (labels as Record<string, string>) : undefined;
}

function deploymentDefaults(revisions: number, rollOne: boolean, noDeadline: boolean): (spec: Obj) => Obj {
  return (spec) => {
    const out = omit(spec, 'rollbackTo');
    defaultField(out, 'revisionHistoryLimit', revisions);
    if (noDeadline) defaultField(out, 'progressDeadlineSeconds', MAX_INT32);
    const strategy = { ...obj(out.strategy) };
    defaultField(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate' && rollOne) {
      const rolling = { ...obj(strategy.rollingUpdate) };
      defaultField(rolling, 'maxUnavailable', 1);
      defaultField(rolling, 'maxSurge', 1);
      strategy.rollingUpdate = rolling;
    }
    out.strategy = strategy;
    return out;
  };
}

function onDeleteByDefault(field: 'updateStrategy'): (spec: Obj) => Obj {
  return (spec) => {
    const out = omit(spec, 'templateGeneration');
    const strategy = { ...obj(out[field]) };
    defaultField(strategy, 'type', 'OnDelete');
    out[field] = strategy;
    return out;
  };
}

const dropTemplateGeneration = (spec: Obj): Obj => omit(spec, 'templateGeneration');

const OLD_DEFAULTS: Readonly<Record<string, Partial<Record<OldVersion, OldDefaults>>>> = {
  Deployment: {
    'extensions/v1beta1': {
      selectorFromTemplate: true,
      labelsFromTemplate: true,
      spec: deploymentDefaults(MAX_INT32, true, true),
    },
    'apps/v1beta1': {
      selectorFromTemplate: true,
      labelsFromTemplate: true,
      spec: deploymentDefaults(2, false, false),
    },
    'apps/v1beta2': { selectorFromTemplate: true, labelsFromTemplate: false },
  },
  DaemonSet: {
    'extensions/v1beta1': {
      selectorFromTemplate: true,
      labelsFromTemplate: true,
      spec: onDeleteByDefault('updateStrategy'),
    },
    'apps/v1beta2': { selectorFromTemplate: true, labelsFromTemplate: false, spec: dropTemplateGeneration },
  },
  StatefulSet: {
    'apps/v1beta1': { selectorFromTemplate: true, labelsFromTemplate: true, spec: onDeleteByDefault('updateStrategy') },
    'apps/v1beta2': { selectorFromTemplate: true, labelsFromTemplate: false },
  },
  ReplicaSet: {
    'extensions/v1beta1': { selectorFromTemplate: true, labelsFromTemplate: true },
    'apps/v1beta2': { selectorFromTemplate: true, labelsFromTemplate: false },
  },
};

function toAppsV1(defaults: OldDefaults): ConvertFn {
  return (o: ApiObject) => {
    let labels: Record<string, string> | undefined;
    const out = withSpec(o, (spec) => {
      labels = templateLabels(spec);
      const next = defaults.spec ? defaults.spec(spec) : { ...spec };
      if (defaults.selectorFromTemplate && !isSet(next.selector) && labels)
        next.selector = { matchLabels: { ...labels } };
      return next;
    });
    out.apiVersion = 'apps/v1';
    if (defaults.labelsFromTemplate && labels && Object.keys(out.metadata.labels ?? {}).length === 0) {
      out.metadata = { ...out.metadata, labels: { ...labels } };
    }
    return out;
  };
}

const sameShape: ConvertFn = (o) => ({ ...o, apiVersion: 'apps/v1' });

function split(v: OldVersion): { group: string; version: string } {
  const [group, version] = v.split('/');
  return { group, version };
}

/** The apps/v1 kinds and the old versions each is read from. */
export function appsFamilies(_domain: ApiDomain): KindFamily[] {
  const workloads = Object.entries(OLD_DEFAULTS).map(([kind, versions]) => ({
    kind,
    internal: `apps.${kind}`,
    served: [{ group: 'apps', version: 'v1' }],
    removed: Object.entries(versions).map(([v, d]) => ({ ...split(v as OldVersion), toHub: toAppsV1(d) })),
  }));
  return [
    ...workloads,
    {
      kind: 'ControllerRevision',
      internal: 'apps.ControllerRevision',
      served: [{ group: 'apps', version: 'v1' }],
      removed: [
        { group: 'apps', version: 'v1beta1', toHub: sameShape },
        { group: 'apps', version: 'v1beta2', toHub: sameShape },
      ],
    },
  ];
}
