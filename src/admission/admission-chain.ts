import { apiErrors, StatusError } from '../apis/meta/status.js';
import type { AdmissionAttributes } from './admission-attributes.js';
import type { Admission, AdmissionPlugin } from './admission-plugin.js';

/**
 * The admission chains of a plugin list: mutating plugins (those with `admit`) in order, then,
 * separately, validating plugins (those with `validate`) in order.
 */
export class AdmissionChain implements Admission {
  private readonly mutating: AdmissionPlugin[];
  private readonly validating: AdmissionPlugin[];

  constructor(readonly plugins: readonly AdmissionPlugin[]) {
    this.mutating = plugins.filter((p) => p.admit !== undefined);
    this.validating = plugins.filter((p) => p.validate !== undefined);
  }

  async admit(a: AdmissionAttributes, signal: AbortSignal): Promise<void> {
    for (const p of this.mutating) {
      if (!p.handles(a.operation)) continue;
      try {
        await p.admit!(a, signal);
      } catch (e) {
        throw rejection(a, e);
      }
    }
  }

  async validate(a: AdmissionAttributes, signal: AbortSignal): Promise<void> {
    for (const p of this.validating) {
      if (!p.handles(a.operation)) continue;
      try {
        await p.validate!(a, signal);
      } catch (e) {
        throw rejection(a, e);
      }
    }
  }
}

/** No plugins: every write is admitted as it is. */
export const admitEverything: Admission = new AdmissionChain([]);

/**
 * The name kube's admission errors give the object: the request's, else (a create whose name is
 * still to be generated) the object's `generateName`, else `Unknown`.
 */
function rejectedName(a: AdmissionAttributes): string {
  if (a.name) return a.name;
  const meta = a.object?.metadata;
  return meta?.name || meta?.generateName || 'Unknown';
}

/** kube's admission.NewForbidden: a plugin's plain error becomes a 403 naming the object. */
function rejection(a: AdmissionAttributes, e: unknown): StatusError {
  if (e instanceof StatusError) return e;
  const message = e instanceof Error ? e.message : String(e);
  const err = apiErrors.forbidden({ group: a.resource.group, resource: a.resource.resource }, rejectedName(a), message);
  return new StatusError(err.code, err.reason, err.message, err.details, { cause: e });
}
