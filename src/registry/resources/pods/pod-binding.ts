import type { Pod, PodCondition } from '../../../apis/core/pod-types.js';
import { type FieldError, fieldErrors, formatFieldError } from '../../../apis/meta/field-error.js';
import { apiErrors, StatusError } from '../../../apis/meta/status.js';
import type { ApiObject } from '../../../apis/object.js';
import type { ComputedCreateOptions } from '../../../apis/resource-definition.js';
import { isPlainObject } from '../../../apis/schema/json-value.js';
import { type Clock, formatTime, systemClock } from '../../../util/clock.js';
import { goQuote } from '../../../util/go-strconv.js';
import type { RequestContext } from '../../types.js';
import { innerContext, type ServedResources, servedOrUnavailable, statusAnswer } from './inner-requests.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const BINDING_GR = { group: '', resource: 'pods/binding' };
const PODS_GR = { group: '', resource: 'pods' };

export interface PodBindingDeps {
  readonly resources: ServedResources;
  readonly clock?: Clock;
}

/** kube's `ValidatePodBinding`: the target is a node (kind empty or `Node`) with a name. */
export function validateBinding(binding: ApiObject): FieldError[] {
  const target = isPlainObject(binding.target) ? binding.target : {};
  const errs: FieldError[] = [];
  const kind = typeof target.kind === 'string' ? target.kind : '';
  if (kind && kind !== 'Node') errs.push(fieldErrors.notSupported('target.kind', kind, ['Node', '<empty>']));
  if (!target.name) errs.push(fieldErrors.required('target.name'));
  return errs;
}

/** kube's `UpdatePodCondition`: replaces the condition; its transition time moves only with its status. */
function setCondition(pod: Pod, condition: PodCondition): void {
  pod.status ??= {};
  pod.status.conditions ??= [];
  const conditions = pod.status.conditions;
  const i = conditions.findIndex((c) => c.type === condition.type);
  if (i === -1) {
    conditions.push(condition);
    return;
  }
  if (conditions[i].status === condition.status) condition.lastTransitionTime = conditions[i].lastTransitionTime;
  conditions[i] = condition;
}

function preconditionFailed(name: string, what: string, wanted: string, actual: string | undefined): StatusError {
  return apiErrors.conflict(
    PODS_GR,
    name,
    `Precondition failed: ${what} in precondition: ${wanted}, ${what} in object meta: ${actual ?? ''}`,
  );
}

/**
 * Binds a pod to a node as kube's `BindingREST` does: a bad target is a 500 (kube reports the
 * aggregate of field errors, not a 422); a pod being deleted, already bound or still gated is a
 * 409 on `pods/binding`; otherwise `spec.nodeName` is set once, the binding's annotations are
 * merged into the pod's and `PodScheduled` becomes True. The binding's `uid` and
 * `resourceVersion`, when set, are preconditions on the pod. Answers a success Status.
 */
export function bindPod(deps: PodBindingDeps) {
  const clock = deps.clock ?? systemClock;
  return async (
    ctx: RequestContext,
    namespace: string,
    name: string,
    binding: ApiObject,
    dryRun: boolean,
  ): Promise<ApiObject> => {
    const errs = validateBinding(binding);
    if (errs.length > 0) {
      const joined = errs.map(formatFieldError);
      throw new StatusError(500, '', joined.length === 1 ? joined[0] : `[${joined.join(', ')}]`);
    }
    const target = binding.target as { name: string };
    const pods = servedOrUnavailable(deps.resources, PODS);
    const uid = binding.metadata.uid;
    const resourceVersion = binding.metadata.resourceVersion;
    const updateCtx = innerContext(ctx, pods, { verb: 'update', namespace, name, subresource: 'binding' });
    await pods.store.update(
      updateCtx,
      name,
      {
        retryOnConflict: !resourceVersion,
        compute(live) {
          if (!live) throw apiErrors.notFound(PODS_GR, name);
          if (uid && uid !== live.metadata.uid) throw preconditionFailed(name, 'UID', uid, live.metadata.uid);
          if (resourceVersion && resourceVersion !== live.metadata.resourceVersion) {
            throw preconditionFailed(name, 'ResourceVersion', resourceVersion, live.metadata.resourceVersion);
          }
          const pod = live as Pod;
          const conflict = (detail: string) => apiErrors.conflict(BINDING_GR, name, detail);
          if (pod.metadata.deletionTimestamp)
            throw conflict(`pod ${name} is being deleted, cannot be assigned to a host`);
          const current = pod.spec?.nodeName ?? '';
          if (current) throw conflict(`pod ${name} is already assigned to node ${goQuote(current)}`);
          if ((pod.spec?.schedulingGates ?? []).length > 0)
            throw conflict(`pod ${name} has non-empty .spec.schedulingGates`);
          pod.spec ??= {};
          pod.spec.nodeName = target.name;
          pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), ...(binding.metadata.annotations ?? {}) };
          // kube's lastProbeTime stays zero (JSON null); the schema has no null times, so it is left out.
          setCondition(pod, { type: 'PodScheduled', status: 'True', lastTransitionTime: formatTime(clock.now()) });
          return pod;
        },
      },
      { dryRun, subresource: 'binding' },
    );
    return statusAnswer();
  };
}

/** `pods/<name>/binding`: the binding names the pod the path names. */
export function podBindingCreate(deps: PodBindingDeps) {
  const bind = bindPod(deps);
  return (
    ctx: RequestContext,
    parent: { readonly namespace: string; readonly name: string },
    body: ApiObject,
    options: ComputedCreateOptions,
  ): Promise<ApiObject> => {
    if ((body.metadata.name ?? '') !== parent.name) {
      throw apiErrors.badRequest('name in URL does not match name in Binding object');
    }
    if (body.metadata.namespace && body.metadata.namespace !== parent.namespace) {
      throw apiErrors.badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    return bind(ctx, parent.namespace, parent.name, body, options.dryRun);
  };
}

/** The legacy `bindings` resource: POST a Binding named after the pod to bind. */
export function legacyBindingCreate(deps: PodBindingDeps) {
  const bind = bindPod(deps);
  return (ctx: RequestContext, body: ApiObject, options: ComputedCreateOptions): Promise<ApiObject> => {
    if (body.metadata.namespace && body.metadata.namespace !== ctx.namespace) {
      throw apiErrors.badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    if (!body.metadata.name) throw apiErrors.badRequest('Name parameter required.');
    return bind(ctx, ctx.namespace, body.metadata.name, body, options.dryRun);
  };
}
