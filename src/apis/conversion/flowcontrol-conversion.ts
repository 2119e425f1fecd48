/**
 * FlowSchema and PriorityLevelConfiguration from flowcontrol.apiserver.<domain>/v1beta1, v1beta2
 * and v1beta3 into v1. FlowSchemas have v1's shape. A limited priority level's
 * `assuredConcurrencyShares` (v1beta1, v1beta2) becomes `nominalConcurrencyShares`; those
 * versions, and v1beta3, held the shares in a plain integer whose zero meant "unset" and was
 * defaulted to 30, so an unset or zero value becomes an explicit 30 — except a v1beta3 zero marked
 * with kube's `flowcontrol.<domain>/v1beta3-preserve-zero-concurrency-shares` annotation, which
 * stays 0 (the annotation, only meaningful in v1beta3, is dropped). In v1 the default applies only
 * when unset and an explicit 0 stays 0, which is why the value is written out.
 */
import type { ApiDomain } from '../api-domain.js';
import type { ConvertFn, KindFamily } from './conversion-types.js';
import { obj, renameKey, retarget } from './json-helpers.js';

/** The concurrency shares of a limited priority level when unset. */
export const DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;

/** The v1beta3 annotation that keeps a zero share count zero. */
export function preserveZeroSharesKey(domain: ApiDomain): string {
  return `${domain.group('flowcontrol')}/v1beta3-preserve-zero-concurrency-shares`;
}

function priorityLevelToV1(apiVersion: string, preserveZeroKey?: string): ConvertFn {
  return (o) => {
    const out = retarget(o, apiVersion);
    const annotations = out.metadata.annotations;
    const preserveZero =
      preserveZeroKey !== undefined && annotations !== undefined && Object.hasOwn(annotations, preserveZeroKey);
    if (preserveZero) {
      const { [preserveZeroKey]: _, ...rest } = annotations;
      out.metadata = { ...out.metadata, annotations: rest };
      if (Object.keys(rest).length === 0) delete out.metadata.annotations;
    }
    const spec = obj(out.spec);
    if (spec.limited === undefined || spec.limited === null) return out;
    const limited = renameKey(obj(spec.limited), 'assuredConcurrencyShares', 'nominalConcurrencyShares');
    const shares = limited.nominalConcurrencyShares;
    if (shares === undefined || shares === null || (shares === 0 && !preserveZero)) {
      limited.nominalConcurrencyShares = DEFAULT_NOMINAL_CONCURRENCY_SHARES;
    }
    out.spec = { ...spec, limited };
    return out;
  };
}

/** The two flow-control kinds in v1 and the three removed betas. */
export function flowcontrolFamilies(domain: ApiDomain): KindFamily[] {
  const group = domain.group('flowcontrol.apiserver');
  const apiVersion = `${group}/v1`;
  const betas = ['v1beta1', 'v1beta2', 'v1beta3'];
  const same: ConvertFn = (o) => ({ ...o, apiVersion });
  return [
    {
      kind: 'FlowSchema',
      internal: 'flowcontrol.FlowSchema',
      served: [{ group, version: 'v1' }],
      removed: betas.map((version) => ({ group, version, toHub: same })),
    },
    {
      kind: 'PriorityLevelConfiguration',
      internal: 'flowcontrol.PriorityLevelConfiguration',
      served: [{ group, version: 'v1' }],
      removed: betas.map((version) => ({
        group,
        version,
        toHub: priorityLevelToV1(apiVersion, version === 'v1beta3' ? preserveZeroSharesKey(domain) : undefined),
      })),
    },
  ];
}
