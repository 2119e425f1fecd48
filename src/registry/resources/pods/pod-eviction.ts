import type { ApiDomain } from '../../../apis/api-domain.js';
import type { Pod } from '../../../apis/core/pod-types.js';
import { apiErrors, StatusError } from '../../../apis/meta/status.js';
import type { ApiObject } from '../../../apis/object.js';
import {
  budgetNotProcessedError,
  budgetsCovering,
  canIgnoreBudgets,
  checkAndDecrement,
  isPodReady,
  MULTIPLE_BUDGETS_MESSAGE,
  shouldEnforceResourceVersion,
} from '../../../apis/policy/eviction-rules.js';
import type { PodDisruptionBudget } from '../../../apis/policy/pdb-rules.js';
import type { ComputedCreateOptions } from '../../../apis/resource-definition.js';
import { isPlainObject } from '../../../apis/schema/json-value.js';
import { type Clock, formatTime, systemClock } from '../../../util/clock.js';
import type { ServedResource } from '../../resource-set/index.js';
import type { DeleteOptions, PropagationPolicy, RequestContext } from '../../types.js';
import { innerContext, type ServedResources, servedOrUnavailable, statusAnswer } from './inner-requests.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const BUDGETS = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };

/** kube retries a budget's check-and-decrement, and a pod's read-and-delete, this often on conflicts. */
const RETRIES = 20;

export interface PodEvictionDeps {
  readonly resources: ServedResources;
  readonly domain: ApiDomain;
  readonly clock?: Clock;
}

type Json = Record<string, unknown>;

function isConflict(e: unknown): boolean {
  return e instanceof StatusError && e.code === 409;
}

function goStrings(list: readonly string[]): string {
  return `[${list.join(' ')}]`;
}

/** The delete options an Eviction carries, with the request's dry run folded in as kube does. */
function evictionDeleteOptions(eviction: Json, requestDryRun: boolean): DeleteOptions {
  const raw = isPlainObject(eviction.deleteOptions) ? eviction.deleteOptions : {};
  const bodyDryRun = Array.isArray(raw.dryRun) ? (raw.dryRun as string[]) : [];
  const queryDryRun = requestDryRun ? ['All'] : [];
  if (bodyDryRun.length > 0 && queryDryRun.length > 0 && goStrings(bodyDryRun) !== goStrings(queryDryRun)) {
    throw new StatusError(
      500,
      '',
      `Non-matching dry-run options in request and content: ${goStrings(queryDryRun)} and ${goStrings(bodyDryRun)}`,
    );
  }
  const pre = isPlainObject(raw.preconditions) ? raw.preconditions : undefined;
  const preconditions =
    pre && (typeof pre.uid === 'string' || typeof pre.resourceVersion === 'string')
      ? {
          ...(typeof pre.uid === 'string' ? { uid: pre.uid } : {}),
          ...(typeof pre.resourceVersion === 'string' ? { resourceVersion: pre.resourceVersion } : {}),
        }
      : undefined;
  const grace = typeof raw.gracePeriodSeconds === 'number' ? raw.gracePeriodSeconds : undefined;
  return {
    dryRun: requestDryRun || bodyDryRun.includes('All'),
    preconditions,
    gracePeriodSeconds: grace !== undefined && grace < 0 ? 1 : grace,
    propagationPolicy:
      typeof raw.propagationPolicy === 'string' ? (raw.propagationPolicy as PropagationPolicy) : undefined,
    orphanDependents: typeof raw.orphanDependents === 'boolean' ? raw.orphanDependents : undefined,
  };
}

function withResourceVersion(o: DeleteOptions, resourceVersion: string | undefined): DeleteOptions {
  return { ...o, preconditions: { ...(o.preconditions ?? {}), resourceVersion } };
}

/**
 * `pods/<name>/eviction` (POST a policy/v1 Eviction), as kube-apiserver v1.32 evicts: pods that
 * are pending, terminal or already deleting are deleted at once; otherwise the one disruption
 * budget covering the pod must allow a disruption, which is taken from its status (recorded in
 * `status.disruptedPods`) before the pod is deleted; more than one covering budget is refused
 * (a Status with code 500); a pod no budget covers is deleted. Answers a success Status.
 */
export function podEvictionCreate(deps: PodEvictionDeps) {
  const clock = deps.clock ?? systemClock;
  return async (
    ctx: RequestContext,
    parent: { readonly namespace: string; readonly name: string },
    body: ApiObject,
    options: ComputedCreateOptions,
  ): Promise<ApiObject> => {
    if ((body.metadata.name ?? '') !== parent.name) {
      throw apiErrors.badRequest('name in URL does not match name in Eviction object');
    }
    if (body.metadata.namespace && body.metadata.namespace !== parent.namespace) {
      throw apiErrors.badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    const deleteOptions = evictionDeleteOptions(body, options.dryRun);
    const pods = servedOrUnavailable(deps.resources, PODS);
    const podCtx = (verb: string) => innerContext(ctx, pods, { verb, namespace: parent.namespace, name: parent.name });
    const userPinnedVersion = deleteOptions.preconditions?.resourceVersion !== undefined;

    let pod: Pod | undefined;
    for (let attempt = 1; ; attempt++) {
      pod = (await pods.store.get(podCtx('get'), parent.name, {})) as Pod;
      if (!canIgnoreBudgets(pod)) break;
      const o =
        shouldEnforceResourceVersion(pod) && !userPinnedVersion
          ? withResourceVersion(deleteOptions, pod.metadata.resourceVersion)
          : deleteOptions;
      try {
        await pods.store.delete(podCtx('delete'), parent.name, o);
        return statusAnswer();
      } catch (e) {
        if (!isConflict(e) || userPinnedVersion || attempt >= RETRIES) throw e;
      }
    }

    const budgets = servedOrUnavailable(deps.resources, BUDGETS);
    const list = await budgets.store.list(
      innerContext(ctx, budgets, { verb: 'list', namespace: parent.namespace }),
      {},
    );
    const covering = budgetsCovering(pod, list.items as PodDisruptionBudget[]);
    if (covering.length > 1) {
      return statusAnswer({ status: 'Failure', message: MULTIPLE_BUDGETS_MESSAGE, code: 500 });
    }
    let conditional = false;
    let pdbName = '';
    if (covering.length === 1) {
      const pdb = covering[0];
      pdbName = pdb.metadata.name ?? '';
      const s = pdb.status ?? {};
      const desired = s.desiredHealthy ?? 0;
      // An unready pod does not count as healthy: evicting it takes nothing from the budget.
      if (!isPodReady(pod) && (s.currentHealthy ?? 0) >= desired && desired > 0) {
        conditional = true;
      } else {
        await decrementBudget(budgets, ctx, pdb, parent.name, { ...deps, clock }, deleteOptions.dryRun);
      }
    }
    const o = conditional ? withResourceVersion(deleteOptions, pod.metadata.resourceVersion) : deleteOptions;
    try {
      await pods.store.delete(podCtx('delete'), parent.name, o);
    } catch (e) {
      // The pod turned ready since it was read: kube answers 429 so that the client retries.
      if (isConflict(e) && conditional && !userPinnedVersion) throw budgetNotProcessedError(pdbName);
      throw e;
    }
    return statusAnswer();
  };
}

/** Check-and-decrement the budget through `poddisruptionbudgets/status`, re-reading it on conflicts. */
async function decrementBudget(
  budgets: ServedResource,
  ctx: RequestContext,
  initial: PodDisruptionBudget,
  podName: string,
  deps: PodEvictionDeps & { readonly clock: Clock },
  dryRun: boolean,
): Promise<void> {
  const name = initial.metadata.name ?? '';
  const ns = initial.metadata.namespace ?? '';
  let pdb = initial;
  for (let attempt = 1; ; attempt++) {
    const next = checkAndDecrement(pdb, podName, { now: formatTime(deps.clock.now()), dryRun });
    if (dryRun) return;
    try {
      const statusCtx = innerContext(ctx, budgets, { verb: 'update', namespace: ns, name, subresource: 'status' });
      await budgets.store.update(
        statusCtx,
        name,
        { compute: () => next as ApiObject, retryOnConflict: false },
        { dryRun: false, subresource: 'status', fieldManager: deps.domain.apiServerManager },
      );
      return;
    } catch (e) {
      if (!isConflict(e)) throw e;
      if (attempt >= RETRIES) {
        throw new StatusError(
          504,
          'Timeout',
          `Timeout: couldn't update PodDisruptionBudget "${name}" due to conflicts`,
          { retryAfterSeconds: 10 },
          { headers: { 'retry-after': '10' } },
        );
      }
      const getCtx = innerContext(ctx, budgets, { verb: 'get', namespace: ns, name });
      pdb = (await budgets.store.get(getCtx, name, {})) as PodDisruptionBudget;
    }
  }
}
