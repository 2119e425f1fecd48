import { FieldSet, FieldSetBuilder, type SetEntry } from '../fieldpath/field-set.js';
import type { PathElement } from '../fieldpath/path-element.js';
import {
  DEDUCED,
  DEDUCED_MAP,
  fieldType,
  isStructField,
  type ListType,
  type MapType,
  type TypeNode,
} from './type-node.js';

/**
 * Field-set operations that need the schema: structured-merge-diff's
 * `EnsureNamedFieldsAreMembers` and `ReconcileFieldSetWithSchema`.
 */

function asMap(t: TypeNode | undefined): MapType | undefined {
  if (!t) return undefined;
  if (t.kind === 'map') return t;
  if (t.kind === 'deduced') return DEDUCED_MAP;
  return undefined;
}

function asList(t: TypeNode | undefined): ListType | undefined {
  return t?.kind === 'list' ? t : undefined;
}

function childType(t: TypeNode | undefined, pe: PathElement): TypeNode | undefined {
  if (pe.kind === 'field') {
    const m = asMap(t);
    return m ? fieldType(m, pe.name) : undefined;
  }
  if (pe.kind === 'key') return asList(t)?.element ?? (t?.kind === 'deduced' ? DEDUCED : undefined);
  return undefined;
}

/**
 * The set plus every declared struct field that has members below it: `.spec.replicas` brings
 * `.spec` in, `.metadata.labels.app` brings `.metadata` and `.metadata.labels` (map keys are not
 * named fields, struct fields are). Removal works on members, so this lets a removal of
 * "everything the applier had under `.spec`" take `.spec` itself along when nobody else needs it.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, t: TypeNode | undefined): FieldSet {
  let changed = false;
  const m = asMap(t);
  const out: SetEntry[] = [];
  for (const e of set.unorderedEntries()) {
    if (!e.children) {
      out.push(e);
      continue;
    }
    const children = ensureNamedFieldsAreMembers(e.children, childType(t, e.pe));
    const named = e.pe.kind === 'field' && m !== undefined && isStructField(m, e.pe.name);
    const member = e.member || named;
    if (children !== e.children || member !== e.member) changed = true;
    out.push({ pe: e.pe, member, children });
  }
  return changed ? FieldSet.fromEntries(out) : set;
}

/**
 * Adapts a manager's set to the current schema where a granular map or list became atomic: the
 * manager then owns the atomic field itself instead of the fields below it. Returns the set
 * unchanged when nothing needs adapting.
 */
export function reconcileWithSchema(set: FieldSet, t: TypeNode): FieldSet {
  const walk = new AtomicOwnership();
  walk.visit(t, set, false);
  if (!walk.found) return set;
  const replaced = walk.toRemove.build();
  return set.recursiveDifference(replaced).union(replaced);
}

/**
 * The walk of {@link reconcileWithSchema}: the paths below which a set owns fields of a map or
 * list that is now atomic. Methods, not closures made per call (the server bundle keeps function
 * names, at a cost per function made).
 */
class AtomicOwnership {
  readonly toRemove = new FieldSetBuilder();
  found = false;
  private readonly path: PathElement[] = [];

  visit(nt: TypeNode, children: FieldSet | undefined, isAtomic: boolean): void {
    const rt = nt.kind === 'deduced' ? asMap(nt)! : nt;
    if (rt.kind === 'scalar') return;
    // Maps of unknown fields (no declared fields) carry no atomic/granular information.
    if (rt.kind === 'map' && !rt.fields && rt.element?.kind === 'deduced') return;
    if (!isAtomic && rt.atomic) {
      if (children && !children.empty) {
        this.toRemove.insert(this.path);
        this.found = true;
      }
      return;
    }
    if (children) this.visitLevel(children, rt);
  }

  private visitLevel(level: FieldSet, lt: MapType | ListType): void {
    for (const e of level.unorderedEntries()) {
      let ct: TypeNode | undefined;
      if (lt.kind === 'list') ct = lt.element;
      else if (e.pe.kind === 'field') ct = fieldType(lt, e.pe.name);
      if (!ct) continue;
      this.path.push(e.pe);
      this.visit(ct, e.children, e.member && !e.children);
      this.path.pop();
    }
  }
}
