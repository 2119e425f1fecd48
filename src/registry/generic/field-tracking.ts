import { apiVersionOf, type ResourceDefinition } from '../../apis/resource-definition.js';
import {
  createFieldManager,
  type FieldManager,
  type FieldSet,
  fieldPathsSet,
  type WriteOptions,
} from '../../apply/index.js';
import type { Clock } from '../../util/clock.js';

/**
 * Field ownership (`metadata.managedFields`) of one served resource: its field manager and the
 * reset fields of each endpoint (kube's `GetResetFields`), as the definition declares them.
 */
export class ResourceFieldTracking {
  readonly fieldManager: FieldManager;
  private readonly resets = new Map<string, FieldSet | undefined>();

  constructor(def: ResourceDefinition, clock: Clock) {
    this.fieldManager = createFieldManager({
      schema: def.schema,
      apiVersion: apiVersionOf(def),
      kind: def.kind,
      clock,
      newObject: def.zeroObject,
    });
    this.resets.set('', resetSet(def.resetFields));
    for (const sub of def.subresources) this.resets.set(sub.name, resetSet(sub.resetFields));
  }

  /** The field manager's options for a write through `subresource` (empty: the main resource). */
  writeOptions(subresource: string | undefined): WriteOptions {
    return { subresource: subresource || undefined, resetFields: this.resets.get(subresource ?? '') };
  }
}

function resetSet(paths: readonly string[] | undefined): FieldSet | undefined {
  return paths && paths.length > 0 ? fieldPathsSet([...paths]) : undefined;
}
