import type { AdmissionAttributes, Operation } from '../../admission/index.js';
import type { ApiObject } from '../../apis/object.js';
import type { RequestContext } from '../types.js';
import type { RegistryContext } from './registry-context.js';

export interface AdmissionCall {
  readonly operation: Operation;
  readonly object: ApiObject | undefined;
  readonly oldObject: ApiObject | undefined;
  readonly name: string;
  readonly dryRun: boolean;
  readonly subresource?: string;
  /** The operation's options as a `CreateOptions`/`UpdateOptions`/`DeleteOptions` object. */
  readonly options?: Readonly<Record<string, unknown>>;
}

/** The admission attributes of a write to this registry's resource. */
export function admissionAttributes(rc: RegistryContext, ctx: RequestContext, c: AdmissionCall): AdmissionAttributes {
  const def = rc.def;
  const namespace = def.namespaced
    ? (c.object?.metadata.namespace ?? c.oldObject?.metadata.namespace ?? ctx.namespace)
    : '';
  return {
    kind: { group: def.group, version: def.version, kind: def.kind },
    resource: { group: def.group, version: def.version, resource: def.resource },
    subresource: c.subresource ?? '',
    namespace,
    name: c.name,
    operation: c.operation,
    object: c.object,
    oldObject: c.oldObject,
    user: ctx.user,
    dryRun: c.dryRun,
    options: c.options,
    warnings: ctx.warnings,
  };
}

/** Mutating admission of a write; plugins may change `c.object` in place. */
export function admitWrite(rc: RegistryContext, ctx: RequestContext, c: AdmissionCall): Promise<void> {
  return rc.admission.admit(admissionAttributes(rc, ctx, c), ctx.signal);
}

/** Validating admission of a write, after the strategy validated it. */
export function validateWrite(rc: RegistryContext, ctx: RequestContext, c: AdmissionCall): Promise<void> {
  return rc.admission.validate(admissionAttributes(rc, ctx, c), ctx.signal);
}
