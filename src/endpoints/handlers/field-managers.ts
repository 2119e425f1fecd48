import type { FieldError } from '../../apis/meta/field-error.js';
import { apiErrors, type StatusError } from '../../apis/meta/status.js';
import type { ResourceDefinition } from '../../apis/resource-definition.js';
import {
  createFieldManager,
  type FieldManager,
  type FieldSet,
  fieldPathsSet,
  managerOrUserAgent,
  validateFieldManager,
  validatePatchFieldManager,
  type WriteOptions,
} from '../../apply/index.js';
import type { OptionsKind } from '../../encoding/index.js';
import type { Clock } from '../../util/clock.js';
import type { ApiRequest } from '../handler.js';
import { apiVersionOf } from './response-writer.js';

/**
 * Field ownership (`metadata.managedFields`) of one served resource: its field manager and the
 * reset fields of each endpoint (kube's `GetResetFields`), computed once.
 */
export class ResourceFieldTracking {
  readonly fieldManager: FieldManager;
  private readonly resets = new Map<string, FieldSet | undefined>();

  constructor(def: ResourceDefinition, clock: Clock) {
    const apiVersion = apiVersionOf(def);
    this.fieldManager = createFieldManager({
      schema: def.schema,
      apiVersion,
      kind: def.kind,
      clock,
      // kube's Namespace has non-pointer spec and status: its zero object carries both.
      newObject:
        def.group === '' && def.kind === 'Namespace'
          ? () => ({ apiVersion, kind: def.kind, metadata: {}, spec: {}, status: {} })
          : undefined,
    });
    const hasStatus = def.subresources.some((s) => s.name === 'status');
    this.resets.set('', hasStatus ? fieldPathsSet(['status']) : undefined);
    for (const sub of def.subresources) {
      // A sub-resource that writes the parent kind changes only its own part; kube resets the rest.
      if (sub.name === 'status') this.resets.set(sub.name, fieldPathsSet(['spec']));
      else if (sub.name === 'finalize') this.resets.set(sub.name, fieldPathsSet(['status']));
    }
  }

  /** The field manager's options for a write through `subresource` (empty: the main resource). */
  writeOptions(subresource: string | undefined): WriteOptions {
    return { subresource: subresource || undefined, resetFields: this.resets.get(subresource ?? '') };
  }
}

/**
 * The field tracking of every served resource, built when the handler is constructed; a
 * resource served later (looked up by its definition) gets its own on first use.
 */
export class FieldManagers {
  private readonly byDef = new WeakMap<ResourceDefinition, ResourceFieldTracking>();

  constructor(
    defs: readonly ResourceDefinition[],
    private readonly clock: Clock,
  ) {
    for (const def of defs) this.byDef.set(def, new ResourceFieldTracking(def, clock));
  }

  of(def: ResourceDefinition): ResourceFieldTracking {
    let t = this.byDef.get(def);
    if (!t) {
      t = new ResourceFieldTracking(def, this.clock);
      this.byDef.set(def, t);
    }
    return t;
  }
}

/** kube answers invalid write options with 422 `<Kind>Options.meta.orch.io "" is invalid: …`. */
function invalidOptions(kind: OptionsKind, errs: readonly FieldError[]): StatusError {
  return apiErrors.invalid({ group: 'meta.orch.io', kind }, '', errs);
}

/**
 * The manager of a create or update: the `fieldManager` parameter (validated: at most 128
 * bytes, printable; else 422) or the `User-Agent` prefix.
 */
export function writeManager(req: ApiRequest, kind: 'CreateOptions' | 'UpdateOptions'): string {
  const fieldManager = req.query.get('fieldManager') ?? '';
  const errs = validateFieldManager(fieldManager);
  if (errs.length > 0) throw invalidOptions(kind, errs);
  return managerOrUserAgent(fieldManager, req.headers['user-agent']);
}

/**
 * The `force` parameter as kube decodes `PatchOptions.force`: absent is unset; `0` and `false`
 * (any case) are false; anything else, the empty string included, is true.
 */
export function forceParam(query: URLSearchParams): boolean | undefined {
  const v = query.get('force');
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}

/**
 * The manager and `force` of a PATCH, checked as kube's `ValidatePatchOptions` does (422):
 * apply requires `fieldManager`, other patches may not carry `force`. A non-apply patch without
 * `fieldManager` is recorded under the `User-Agent` prefix.
 */
export function patchManager(req: ApiRequest, isApply: boolean): { manager: string; force: boolean } {
  const fieldManager = req.query.get('fieldManager') ?? undefined;
  const force = forceParam(req.query);
  const errs = validatePatchFieldManager({ isApply, fieldManager, force });
  if (errs.length > 0) throw invalidOptions('PatchOptions', errs);
  return {
    manager: isApply ? (fieldManager ?? '') : managerOrUserAgent(fieldManager, req.headers['user-agent']),
    force: force === true,
  };
}
