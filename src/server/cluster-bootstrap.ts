import type { ApiDomain } from '../apis/api-domain.js';
import { apfBootstrap, autoupdateSpecAnnotation } from '../apis/flowcontrol/apf-bootstrap.js';
import { type EnsureStrategy, reviseIfNeeded, unwantedObjects } from '../apis/flowcontrol/apf-ensure.js';
import { StatusError } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import { internalRequestContext } from '../apis/request/request-context.js';
import { systemPriorityClassObjects } from '../apis/scheduling/system-priority-classes.js';
import type { ResourceSet, ServedResource } from '../registry/resource-set/index.js';
import type { RequestContext } from '../registry/types.js';
import type { Logger } from '../util/logger.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';

/** The field manager kube's APF configuration producer writes with. */
const APF_FIELD_MANAGER = 'api-priority-and-fairness-config-producer-v1';

/** Thrown when a bootstrap object could not be written; names each with its error. */
export class ClusterBootstrapError extends Error {}

interface HookOptions {
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

type ContextFor = (verb: string, name?: string) => RequestContext;

function contextFor(group: string, resource: string, signal: AbortSignal): ContextFor {
  return (verb, name) =>
    internalRequestContext({ user: API_SERVER_USER, signal, verb, group, version: 'v1', resource, name });
}

function isReason(e: unknown, reason: string): boolean {
  return e instanceof StatusError && e.reason === reason;
}

async function getOrUndefined(
  served: ServedResource,
  ctx: RequestContext,
  name: string,
): Promise<ApiObject | undefined> {
  try {
    return await served.store.get(ctx, name, {});
  } catch (e) {
    if (isReason(e, 'NotFound')) return undefined;
    throw e;
  }
}

/**
 * kube's `scheduling/bootstrap-system-priority-classes` post-start hook: creates
 * `system-node-critical` and `system-cluster-critical` when missing (existing ones are left as
 * they are). Returns the names created; nothing when PriorityClasses are not served.
 */
export async function ensureSystemPriorityClasses(
  resources: ResourceSet,
  domain: ApiDomain,
  o: HookOptions,
): Promise<string[]> {
  const group = domain.group('scheduling');
  const served = resources.lookup(group, 'v1', 'priorityclasses');
  if (!served) return [];
  const ctx = contextFor(group, 'priorityclasses', o.signal);
  // The two are independent: written together, reported in list order.
  const outcomes = await Promise.all(
    systemPriorityClassObjects(`${group}/v1`).map(async (pc): Promise<string | undefined> => {
      const name = pc.metadata.name ?? '';
      if (await getOrUndefined(served, ctx('get', name), name)) return undefined;
      try {
        await served.store.create(ctx('create', name), pc, { dryRun: false, fieldManager: domain.apiServerManager });
        return name;
      } catch (e) {
        if (!isReason(e, 'AlreadyExists'))
          throw new ClusterBootstrapError(`cannot create PriorityClass ${name}: ${String(e)}`);
        return undefined;
      }
    }),
  );
  const created = outcomes.filter((name) => name !== undefined);
  if (created.length > 0) o.logger.info('created the system priority classes', { created: created.join(', ') });
  return created;
}

/** What one pass of the APF configuration producer did, as `<resource>/<name>` labels. */
export interface ApfEnsureResult {
  readonly created: string[];
  readonly updated: string[];
  readonly deleted: string[];
}

interface KindPass {
  readonly resource: string;
  readonly served: ServedResource;
  readonly ctx: ContextFor;
}

/**
 * kube's `priority-and-fairness-config-producer` pass: the suggested flow schemas and priority
 * levels, then the mandatory ones, are created when missing and revised per their strategy
 * (mandatory specs are always restored; suggested ones follow the `autoupdate-spec` annotation);
 * then objects annotated `autoupdate-spec: "true"` that are no longer part of the bootstrap
 * configuration are deleted. A concurrent change of an object is left for the next pass.
 */
export async function ensureApfConfiguration(
  resources: ResourceSet,
  domain: ApiDomain,
  o: HookOptions,
): Promise<ApfEnsureResult> {
  const group = domain.group('flowcontrol.apiserver');
  const result: ApfEnsureResult = { created: [], updated: [], deleted: [] };
  const pass = (resource: string): KindPass | undefined => {
    const served = resources.lookup(group, 'v1', resource);
    return served && { resource, served, ctx: contextFor(group, resource, o.signal) };
  };
  const fs = pass('flowschemas');
  const pl = pass('prioritylevelconfigurations');
  const boot = apfBootstrap(domain);
  const annotation = autoupdateSpecAnnotation(domain);
  const steps: [KindPass | undefined, ApiObject[], EnsureStrategy][] = [
    [fs, boot.suggestedFlowSchemas, 'suggested'],
    [pl, boot.suggestedPriorityLevels, 'suggested'],
    [fs, boot.mandatoryFlowSchemas, 'mandatory'],
    [pl, boot.mandatoryPriorityLevels, 'mandatory'],
  ];
  // The objects are distinct and independent (a flow schema names its priority level, which
  // need not exist first): their writes go out together, sharing the store's commits rather than
  // one each; the results are listed in kube's order (suggested, then mandatory).
  const outcomes = await Promise.all(
    steps.flatMap(([kind, objects, strategy]) =>
      kind ? objects.map((bootstrap) => ensureOne(kind, bootstrap, strategy, annotation)) : [],
    ),
  );
  for (const [change, label] of outcomes) if (change) result[change].push(label);
  const removals: [KindPass | undefined, ApiObject[]][] = [
    [fs, [...boot.mandatoryFlowSchemas, ...boot.suggestedFlowSchemas]],
    [pl, [...boot.mandatoryPriorityLevels, ...boot.suggestedPriorityLevels]],
  ];
  for (const [kind, wanted] of removals) {
    if (!kind) continue;
    const names = new Set(wanted.map((w) => w.metadata.name ?? ''));
    const current = (await kind.served.store.list(kind.ctx('list'), {})).items;
    for (const obj of unwantedObjects(current, names, annotation)) {
      const name = obj.metadata.name ?? '';
      try {
        await kind.served.store.delete(kind.ctx('delete', name), name, {
          dryRun: false,
          preconditions: { resourceVersion: obj.metadata.resourceVersion },
        });
        result.deleted.push(`${kind.resource}/${name}`);
      } catch (e) {
        if (!isReason(e, 'NotFound') && !isReason(e, 'Conflict')) throw e;
      }
    }
  }
  const changes = result.created.length + result.updated.length + result.deleted.length;
  if (changes > 0) {
    o.logger.info('priority-and-fairness-config-producer: ensured the bootstrap configuration', {
      created: result.created.length,
      updated: result.updated.length,
      deleted: result.deleted.length,
    });
  }
  return result;
}

/** What {@link ensureOne} did to one object, and its `<resource>/<name>` label. */
type EnsureOutcome = readonly ['created' | 'updated' | undefined, string];

async function ensureOne(
  kind: KindPass,
  bootstrap: ApiObject,
  strategy: EnsureStrategy,
  annotation: string,
): Promise<EnsureOutcome> {
  const name = bootstrap.metadata.name ?? '';
  const label = `${kind.resource}/${name}`;
  const current = await getOrUndefined(kind.served, kind.ctx('get', name), name);
  if (!current) {
    try {
      await kind.served.store.create(kind.ctx('create', name), structuredClone(bootstrap), {
        dryRun: false,
        fieldManager: APF_FIELD_MANAGER,
      });
      return ['created', label];
    } catch (e) {
      if (!isReason(e, 'AlreadyExists')) throw new ClusterBootstrapError(`cannot create ${label}: ${String(e)}`);
    }
    return [undefined, label];
  }
  const revised = reviseIfNeeded(strategy, current, bootstrap, annotation);
  if (!revised) return [undefined, label];
  try {
    await kind.served.store.update(
      kind.ctx('update', name),
      name,
      { retryOnConflict: false, compute: () => revised },
      { dryRun: false, fieldManager: APF_FIELD_MANAGER },
    );
    return ['updated', label];
  } catch (e) {
    if (isReason(e, 'Conflict') || isReason(e, 'NotFound')) return [undefined, label];
    throw new ClusterBootstrapError(`cannot update ${label}: ${String(e)}`);
  }
}

/**
 * Runs {@link ensureApfConfiguration} every `intervalMs` (kube: every minute) until `signal`
 * aborts; failures are logged and retried at the next tick. The timer does not keep the process
 * alive.
 */
export function startApfConfigProducer(
  resources: ResourceSet,
  domain: ApiDomain,
  o: HookOptions & { readonly intervalMs: number },
): void {
  if (o.intervalMs <= 0 || o.signal.aborted) return;
  const timer = setInterval(() => {
    ensureApfConfiguration(resources, domain, o).catch((e) => {
      if (!o.signal.aborted)
        o.logger.warn('priority-and-fairness-config-producer failed, will retry', { error: String(e) });
    });
  }, o.intervalMs);
  timer.unref();
  o.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
}
