import type { ApiDomain } from '../api-domain.js';
import {
  type BootstrapFacts,
  mandatoryFlowSchemaFacts,
  mandatoryPriorityLevelFacts,
  suggestedFlowSchemaFacts,
  suggestedPriorityLevelFacts,
} from './apf-bootstrap-facts.js';
import type { FlowSchema, PriorityLevelConfiguration } from './flowcontrol-types.js';

/** The annotation that lets start-up keep a bootstrap object's spec current: `apf.<key domain>/autoupdate-spec`. */
export function autoupdateSpecAnnotation(domain: ApiDomain): string {
  return domain.key('apf', 'autoupdate-spec');
}

/** The v1beta3 round-trip annotation no stored PriorityLevelConfiguration may carry. */
export function preserveZeroSharesAnnotation(domain: ApiDomain): string {
  return `${domain.group('flowcontrol')}/v1beta3-preserve-zero-concurrency-shares`;
}

/** The bootstrap configuration as objects of one API domain (fresh objects on every call). */
export interface ApfBootstrap {
  readonly mandatoryPriorityLevels: PriorityLevelConfiguration[];
  readonly mandatoryFlowSchemas: FlowSchema[];
  readonly suggestedPriorityLevels: PriorityLevelConfiguration[];
  readonly suggestedFlowSchemas: FlowSchema[];
}

/**
 * kube-apiserver v1.32's APF bootstrap objects under `domain`, each annotated
 * `autoupdate-spec: "true"`.
 */
export function apfBootstrap(domain: ApiDomain): ApfBootstrap {
  const apiVersion = `${domain.group('flowcontrol.apiserver')}/v1`;
  const annotation = autoupdateSpecAnnotation(domain);
  const make =
    <T extends FlowSchema | PriorityLevelConfiguration>(kind: string) =>
    (f: BootstrapFacts<NonNullable<T['spec']>>): T =>
      ({
        apiVersion,
        kind,
        metadata: { name: f.name, annotations: { [annotation]: 'true' } },
        spec: structuredClone(f.spec),
      }) as T;
  return {
    mandatoryPriorityLevels: mandatoryPriorityLevelFacts().map(
      make<PriorityLevelConfiguration>('PriorityLevelConfiguration'),
    ),
    mandatoryFlowSchemas: mandatoryFlowSchemaFacts().map(make<FlowSchema>('FlowSchema')),
    suggestedPriorityLevels: suggestedPriorityLevelFacts().map(
      make<PriorityLevelConfiguration>('PriorityLevelConfiguration'),
    ),
    suggestedFlowSchemas: suggestedFlowSchemaFacts(domain).map(make<FlowSchema>('FlowSchema')),
  };
}
