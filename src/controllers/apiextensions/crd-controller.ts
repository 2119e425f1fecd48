import type { ApiDomain } from '../../apis/api-domain.js';
import { caBundleValid } from '../../apis/apiextensions/conversion-validation.js';
import { crdCleanupFinalizer } from '../../apis/apiextensions/crd-resource.js';
import {
  CRD_CONDITIONS,
  type CustomResourceDefinition,
  type CustomResourceDefinitionCondition,
  crdCondition,
  isCrdConditionTrue,
  setCrdCondition,
  storageVersionOf,
} from '../../apis/apiextensions/crd-types.js';
import { apiApprovalCondition } from '../../apis/apiextensions/crd-validation.js';
import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { jsonEqual } from '../../apis/schema/json-value.js';
import type { Informer } from '../../client/informer/informer.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import type { ResourceSet, ServedResource } from '../../registry/resource-set/index.js';
import { type Clock, formatTime, systemClock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import type { ControllerClient } from '../controller-client.js';
import { errorText } from '../controller-support.js';
import { calculateNames, sameCondition, type UsedNames, usedNames } from './accepted-names.js';

/** Options of a {@link CrdController}. */
export interface CrdControllerOptions {
  /** The informer of `customresourcedefinitions` (started by the caller). */
  readonly informer: Informer;
  /** Writes the CRDs' status and deletes custom resources (as the API server). */
  readonly client: ControllerClient;
  /** The served resources: a CRD's custom resources are deleted through them. */
  readonly resources: ResourceSet;
  /** Names the server serves itself in a group (a CRD may not take them). */
  readonly builtinNames: (group: string) => UsedNames;
  readonly domain: ApiDomain;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly clock?: Clock;
  /** How long the finalizer waits for the deleted objects to be gone (kube: one minute). */
  readonly deletionWaitMs?: number;
  /** How often it looks (kube: every 5 s; in process there is no need to wait as long). */
  readonly deletionPollMs?: number;
}

/**
 * kube-apiserver's CustomResourceDefinition controllers in one work loop per CRD name:
 *
 * - API approval: a CRD in one of the profile's own groups gets kube's
 *   `KubernetesAPIApprovalPolicyConformant` condition from its `api-approved` annotation.
 * - naming: `status.acceptedNames` takes each requested name no other CRD of the group (and no
 *   resource the server serves itself) holds; `NamesAccepted` says whether all were, and
 *   `Established` becomes False/Installing until established. A change re-examines the other
 *   CRDs of the group (a name may have been freed).
 * - establishing: once all names are accepted, `Established` True (`InitialNamesAccepted`).
 * - finalizer: a CRD being deleted with the `customresourcecleanup` finalizer has its custom
 *   resources deleted (`Terminating` True InstanceDeletionInProgress, then False
 *   InstanceDeletionCompleted), then loses the finalizer, which removes it.
 *
 * Status writes go through the `status` sub-resource as the API server; a conflict is retried
 * from the newer object the informer delivers.
 */
export class CrdController {
  private readonly queue: WorkQueue<string>;
  private readonly clock: Clock;

  constructor(private readonly o: CrdControllerOptions) {
    this.clock = o.clock ?? systemClock;
    this.queue = new WorkQueue<string>({ signal: o.signal });
    o.informer.addHandlers({
      onAdd: (obj) => this.queue.add(obj.metadata.name ?? ''),
      onUpdate: (_old, obj) => this.queue.add(obj.metadata.name ?? ''),
      onDelete: (obj) => this.requeueGroup(obj as CustomResourceDefinition),
    });
  }

  /** Processes CRDs until the signal aborts. */
  async run(): Promise<void> {
    await this.o.informer.synced();
    await this.queue.run((name) => this.sync(name), {
      onError: (name, e) => this.o.logger.warn('custom resource definition sync failed', { name, error: String(e) }),
    });
  }

  private crds(): CustomResourceDefinition[] {
    return this.o.informer.list() as CustomResourceDefinition[];
  }

  private requeueGroup(crd: CustomResourceDefinition): void {
    for (const other of this.crds()) {
      if (other.spec?.group === crd.spec?.group && other.metadata.name !== crd.metadata.name) {
        this.queue.add(other.metadata.name ?? '');
      }
    }
  }

  private async sync(name: string): Promise<void> {
    const crd = this.o.informer.get('', name) as CustomResourceDefinition | undefined;
    if (!crd) return;
    if (crd.metadata.deletionTimestamp) {
      if ((crd.metadata.finalizers ?? []).includes(crdCleanupFinalizer(this.o.domain))) await this.finalize(crd);
      return;
    }
    const approval = apiApprovalCondition(crd, this.o.domain);
    if (approval && !sameCondition(approval, crdCondition(crd, approval.type))) {
      await this.writeStatus(crd, (c) => setCrdCondition(c, approval, this.now()));
      return;
    }
    if (!jsonEqual(crd.spec?.names ?? {}, crd.status?.acceptedNames ?? {})) {
      await this.name(crd);
      return;
    }
    if (isCrdConditionTrue(crd, CRD_CONDITIONS.namesAccepted) && !isCrdConditionTrue(crd, CRD_CONDITIONS.established)) {
      const clientConfig = crd.spec?.conversion?.webhook?.clientConfig;
      const established: CustomResourceDefinitionCondition =
        clientConfig && !caBundleValid(clientConfig.caBundle)
          ? {
              type: CRD_CONDITIONS.established,
              status: 'False',
              reason: 'InvalidCABundle',
              message: 'The conversion webhook CABundle is invalid',
            }
          : {
              type: CRD_CONDITIONS.established,
              status: 'True',
              reason: 'InitialNamesAccepted',
              message: 'the initial names have been accepted',
            };
      await this.writeStatus(crd, (c) => setCrdCondition(c, established, this.now()));
    }
  }

  private async name(crd: CustomResourceDefinition): Promise<void> {
    const group = crd.spec?.group ?? '';
    const result = calculateNames(crd, usedNames(crd, this.crds(), this.o.builtinNames(group)));
    if (
      jsonEqual(crd.status?.acceptedNames ?? {}, result.acceptedNames) &&
      sameCondition(result.namesAccepted, crdCondition(crd, CRD_CONDITIONS.namesAccepted))
    ) {
      return;
    }
    const written = await this.writeStatus(crd, (c) => {
      c.status = { ...(c.status ?? {}), acceptedNames: result.acceptedNames };
      setCrdCondition(c, result.namesAccepted, this.now());
      setCrdCondition(c, result.established, this.now());
    });
    if (written) this.requeueGroup(crd);
  }

  private async finalize(crd: CustomResourceDefinition): Promise<void> {
    const inProgress = await this.writeStatus(crd, (c) =>
      this.terminating(c, {
        status: 'True',
        reason: 'InstanceDeletionInProgress',
        message: 'CustomResource deletion is in progress',
      }),
    );
    if (!inProgress) return;
    let outcome: Omit<CustomResourceDefinitionCondition, 'type'>;
    let failure: unknown;
    if (isCrdConditionTrue(inProgress, CRD_CONDITIONS.established)) {
      try {
        outcome = await this.deleteInstances(inProgress);
      } catch (e) {
        failure = e;
        outcome = e instanceof InstanceDeletionError ? e.condition : failed(`could not issue all deletes: ${e}`);
      }
    } else {
      outcome = { status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
    }
    if (failure !== undefined) {
      await this.writeStatus(inProgress, (c) => this.terminating(c, outcome));
      throw failure;
    }
    const finalizer = crdCleanupFinalizer(this.o.domain);
    await this.writeStatus(inProgress, (c) => {
      this.terminating(c, outcome);
      c.metadata.finalizers = (c.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    });
  }

  private terminating(crd: CustomResourceDefinition, c: Omit<CustomResourceDefinitionCondition, 'type'>): void {
    setCrdCondition(crd, { type: CRD_CONDITIONS.terminating, ...c }, this.now());
  }

  /** A served version of the CRD's resource (every version reads and deletes the same objects). */
  private servedFor(crd: CustomResourceDefinition): ServedResource | undefined {
    const group = crd.spec?.group ?? '';
    const plural = crd.status?.acceptedNames?.plural ?? '';
    const storage = storageVersionOf(crd.spec ?? {});
    const versions = [storage, ...(crd.spec?.versions ?? []).map((v) => v.name)].filter((v): v is string => !!v);
    for (const v of versions) {
      const served = this.o.resources.lookup(group, v, plural);
      if (served) return served;
    }
    return undefined;
  }

  private async deleteInstances(
    crd: CustomResourceDefinition,
  ): Promise<Omit<CustomResourceDefinitionCondition, 'type'>> {
    const served = this.servedFor(crd);
    const plural = `${crd.status?.acceptedNames?.plural ?? ''}.${crd.spec?.group ?? ''}`;
    if (!served) {
      throw new InstanceDeletionError(
        failed(`could not list instances: unable to find a custom resource client for ${plural}: not served`),
      );
    }
    const { client, signal } = this.o;
    try {
      await client.deleteCollection(served, '', {}, signal);
    } catch (e) {
      throw new InstanceDeletionError(failed(`could not issue all deletes: ${errorText(e)}`));
    }
    const deadline = this.clock.now().getTime() + (this.o.deletionWaitMs ?? 60_000);
    for (;;) {
      const left = (await client.list(served, '', {}, signal)).items.length;
      if (left === 0) break;
      if (this.clock.now().getTime() >= deadline) {
        throw new InstanceDeletionError({
          status: 'True',
          reason: 'InstanceDeletionCheck',
          message: 'could not confirm zero CustomResources remaining: timed out waiting for the condition',
        });
      }
      await new Promise((r) => setTimeout(r, this.o.deletionPollMs ?? 100));
    }
    return { status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
  }

  /**
   * Writes the status of `crd` changed by `change` (a copy is changed) through the `status`
   * sub-resource, guarded by its resourceVersion. Returns the written object, or undefined when
   * it is gone or was changed meanwhile (its next event brings it back here).
   */
  private async writeStatus(
    crd: CustomResourceDefinition,
    change: (c: CustomResourceDefinition) => void,
  ): Promise<CustomResourceDefinition | undefined> {
    const served = this.o.resources.lookup(this.o.informer.resource.group, 'v1', 'customresourcedefinitions');
    if (!served) return undefined;
    const next = structuredClone(crd);
    change(next);
    if (jsonEqual(next, crd)) return crd;
    try {
      return (await this.o.client.update(
        served,
        { namespace: '', name: crd.metadata.name ?? '', subresource: 'status' },
        { compute: () => next as ApiObject, retryOnConflict: false },
        this.o.signal,
      )) as CustomResourceDefinition;
    } catch (e) {
      if (e instanceof StatusError && (e.code === 404 || e.code === 409)) return undefined;
      throw e;
    }
  }

  private now(): string {
    return formatTime(this.clock.now());
  }
}

class InstanceDeletionError extends Error {
  constructor(readonly condition: Omit<CustomResourceDefinitionCondition, 'type'>) {
    super(condition.message);
  }
}

function failed(message: string): Omit<CustomResourceDefinitionCondition, 'type'> {
  return { status: 'True', reason: 'InstanceDeletionFailed', message };
}
