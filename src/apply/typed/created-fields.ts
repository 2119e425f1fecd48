import type { JsonObject } from '../../apis/object.js';
import { compareGoStrings } from '../../util/go-strings.js';
import type { FieldSet } from '../fieldpath/field-set.js';
import { comparePathElements, type FieldElement, fieldElement, type PathElement } from '../fieldpath/path-element.js';
import { valueEquals } from './compare.js';
import { isObject, tryListItemElement } from './list-items.js';
import { isEmptyObject } from './to-field-set.js';
import { type DeclaredField, fieldType, type ListType, type MapType, resolveType, type TypeNode } from './type-node.js';

/** What a create of `obj` gives its writer, as `fieldsV1`; `undefined` when that is nothing. */
export type CreatedFields = { readonly fieldsV1: JsonObject | undefined };

/** The interned leaf: an element that is a member with nothing below it. */
const EMPTY: JsonObject = Object.freeze({});

/**
 * How many prefixes a {@link CreatedLevels} keeps before it starts afresh: about 1 MB at most
 * (objects of endlessly new shapes, such as random label keys), a few hundred for usual kinds.
 */
const MAX_PREFIXES = 2048;

/**
 * A list of a level's keys with the levels below them, as far as it goes: each next key and level
 * (a step) leads to a longer one; `level` is the level that holds exactly these. The next steps
 * are few (objects of one kind mostly have one shape), so they are scanned, not hashed: a
 * declared field's key is one string object every time, compared by reference. Past
 * {@link SCANNED_STEPS} a prefix indexes its steps by key.
 */
interface Prefix {
  steps?: Step[];
  byId?: Map<string, Step[]>;
  level?: JsonObject;
}

interface Step {
  readonly id: string;
  readonly sub: JsonObject;
  readonly next: Prefix;
}

/** Up to this many next steps, a prefix finds one by scanning. */
const SCANNED_STEPS = 8;

/** The prefix step (`id`, `sub`) leads to from `at`, or undefined. */
function stepFrom(at: Prefix, id: string, sub: JsonObject): Prefix | undefined {
  const steps = at.byId === undefined ? at.steps : at.byId.get(id);
  if (steps !== undefined) for (const step of steps) if (step.sub === sub && step.id === id) return step.next;
  return undefined;
}

function addStep(at: Prefix, id: string, sub: JsonObject): Prefix {
  const step: Step = { id, sub, next: {} };
  if (at.steps === undefined) at.steps = [];
  const steps = at.steps;
  steps.push(step);
  if (at.byId === undefined && steps.length > SCANNED_STEPS) {
    at.byId = new Map();
    for (const s of steps) indexStep(at.byId, s);
  } else if (at.byId !== undefined) indexStep(at.byId, step);
  return step.next;
}

function indexStep(byId: Map<string, Step[]>, step: Step): void {
  const list = byId.get(step.id);
  if (list === undefined) byId.set(step.id, [step]);
  else list.push(step);
}

/**
 * The `fieldsV1` levels created objects of one kind were given, each kept once and frozen:
 * objects made from one template (a controller's pods, a client's manifests) own the same fields,
 * so their walks find every level already made and allocate none. The stored encoding then
 * serializes objects that stay in the processor's caches, and the young generation holds fewer
 * short-lived ones. A level is found by its keys in order and the (kept, so comparable by
 * identity) levels below them: a step per key, nothing built. Bounded: past
 * {@link MAX_PREFIXES} it starts afresh. Levels are frozen and shared between objects: nothing
 * writes into a `fieldsV1` object (later writes parse it into sets). A whole `fieldsV1` is
 * serialized once ({@link CreatedLevels.json}): the stored encoding of later creates of its shape
 * copies that text instead of walking its objects again.
 */
export class CreatedLevels {
  private plain: Prefix = {};
  private member: Prefix = {};
  private prefixes = 0;
  private walker: CreatedWalk | undefined;
  /**
   * Every level made here, with its JSON text once asked for (null until then). Levels given up
   * by a trim stay valid: they never change.
   */
  private readonly texts = new WeakMap<JsonObject, string | null>();

  constructor(private readonly maxPrefixes = MAX_PREFIXES) {}

  /** The walk of this table's creates. */
  walk(): CreatedWalk {
    this.walker ??= new CreatedWalk(this);
    return this.walker;
  }

  /** Called before a walk: a full table starts afresh (never during a walk, whose levels it compares). */
  trim(): void {
    if (this.prefixes < this.maxPrefixes) return;
    this.plain = {};
    this.member = {};
    this.prefixes = 0;
  }

  /** The kept level with `ids[from..to)` holding `subs[from..to)` (and `"."` first when a member). */
  level(ids: readonly string[], subs: readonly JsonObject[], from: number, to: number, member: boolean): JsonObject {
    let at = member ? this.member : this.plain;
    for (let i = from; i < to; i++) {
      const id = ids[i]!;
      const sub = subs[i]!;
      const next = stepFrom(at, id, sub);
      if (next !== undefined) at = next;
      else {
        at = addStep(at, id, sub);
        this.prefixes++;
      }
    }
    if (at.level !== undefined) return at.level;
    const made: JsonObject = member ? { '.': EMPTY } : {};
    for (let i = from; i < to; i++) made[ids[i]!] = subs[i]!;
    at.level = Object.freeze(made);
    this.texts.set(made, null);
    return made;
  }

  /**
   * `JSON.stringify(value)` when `value` is a level made here (frozen, so the text never goes
   * stale), kept after the first call; undefined for any other value.
   */
  json(value: unknown): string | undefined {
    // Any other value, objects and primitives alike, is not a key here.
    const level = value as JsonObject;
    const kept = this.texts.get(level);
    if (kept !== null) return kept;
    const text = JSON.stringify(level);
    this.texts.set(level, text);
    return text;
  }
}

/** A shape the one-walk comparison leaves to the general path. */
const UNDECIDED = Symbol('undecided');

/**
 * The `fieldsV1` object of one element (its `"."` key, then its fields or items), undefined when
 * the element is neither a member nor has members below it.
 */
type Level = JsonObject | undefined | typeof UNDECIDED;

/**
 * Where a map level sits. Kube records neither `apiVersion`, `kind` and `metadata` (at the root)
 * nor the stripped fields (below metadata) as members; everything else is `ELSEWHERE`.
 */
const ELSEWHERE = 0;
const ROOT = 1;
const METADATA = 2;
type Place = typeof ELSEWHERE | typeof ROOT | typeof METADATA;

const UNRECORDED_AT_ROOT: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

/** Up to this many items, a list's repeated elements are found by scanning, not with a Map. */
const SCANNED_ITEMS = 8;

/**
 * The fields the writer of a create owns, as `fieldsV1`, in one walk of the new object: what
 * comparing the kind's zero object (`zero`: `{apiVersion, kind, metadata: {}}`, and for some kinds
 * empty structs such as `spec: {}` or null lists) with `obj` reports as added or modified, less
 * `reset` (with everything below its members), and with the fields kube never records taken out
 * as members (`apiVersion`, `kind`, `metadata`, and `stripped` below metadata). The same set the
 * general path (`compareTyped`, set algebra, `toFieldsV1`) computes, without building its sets:
 * each level's object is written directly, its keys visited in `fieldsV1` order.
 *
 * Returns undefined when a part of the zero object is one this walk does not compare (a
 * non-empty list, or a schema-less node): the caller then takes the general path.
 */
export function createdFields(
  obj: Record<string, unknown>,
  zero: Record<string, unknown>,
  t: TypeNode,
  reset: FieldSet | undefined,
  stripped: ReadonlySet<string>,
  levels: CreatedLevels = new CreatedLevels(),
): CreatedFields | undefined {
  levels.trim();
  const root = levels.walk().run(zero, obj, t, reset, stripped);
  // The root is never a member: it is undefined or holds keys.
  return root === UNDECIDED ? undefined : { fieldsV1: root };
}

/**
 * One walk at a time (walks are synchronous); its stacks are kept between walks, so that a walk
 * allocates no arrays of its own.
 */
class CreatedWalk {
  private stripped: ReadonlySet<string> = new Set();
  /** The keys and levels found so far of the levels being built, innermost last. */
  private readonly ids: string[] = [];
  private readonly subs: JsonObject[] = [];
  private top = 0;
  /** The declared fields of the map levels being walked, each level's in rank order, innermost last. */
  private readonly declared: DeclaredField[] = [];
  private declaredTop = 0;
  /** The distinct items of the lists being walked, each list's in `fieldsV1` order, innermost last. */
  private readonly itemPes: PathElement[] = [];
  private readonly itemValues: unknown[] = [];
  private readonly itemRepeated: boolean[] = [];
  private itemTop = 0;

  constructor(private readonly levels: CreatedLevels) {}

  /** The root level of `obj` against `zero`. */
  run(zero: unknown, obj: unknown, t: TypeNode, reset: FieldSet | undefined, stripped: ReadonlySet<string>): Level {
    this.stripped = stripped;
    // A walk that threw may have left entries behind.
    this.top = 0;
    this.declaredTop = 0;
    this.itemTop = 0;
    try {
      return this.compared(zero, obj, t, reset, ROOT, false);
    } finally {
      // The stacks keep no values of the object past its walk.
      this.itemValues.fill(undefined);
    }
  }

  /**
   * `compareTyped(lhs, rhs)` with both defined, as the level of their element: its added and
   * modified paths. `lhs` is a part of a zero object; `owned` says whether the element itself
   * may be a member (it is one when it is a leaf that changed).
   */
  compared(lhs: unknown, rhs: unknown, t: TypeNode, reset: FieldSet | undefined, place: Place, owned: boolean): Level {
    if (t.kind === 'deduced') return UNDECIDED;
    if (t.kind === 'scalar' || t.atomic) return changedLeaf(lhs, rhs, owned);
    if (t.kind === 'map') {
      const lm = isObject(lhs) ? lhs : undefined;
      const rm = isObject(rhs) ? rhs : undefined;
      if ((!lm || isEmptyObject(lm)) && (!rm || isEmptyObject(rm))) return changedLeaf(lhs, rhs, owned);
      if (!rm) return undefined;
      // Present on both sides: not a member itself, only what changed below it.
      return this.mapLevel(lm, rm, t, reset, place, false);
    }
    const ll = Array.isArray(lhs) ? lhs : undefined;
    const rl = Array.isArray(rhs) ? rhs : undefined;
    if ((!ll || ll.length === 0) && (!rl || rl.length === 0)) return changedLeaf(lhs, rhs, owned);
    if (ll && ll.length > 0) return UNDECIDED;
    if (!rl) return undefined;
    return this.listLevel(rl, t, reset, false);
  }

  /**
   * A value that appeared: its element (a member when `owned`), and for a granular map or list
   * that is not empty, everything below it. Never `UNDECIDED`.
   */
  added(value: unknown, t: TypeNode, reset: FieldSet | undefined, place: Place, owned: boolean): Level {
    // Below the root and outside any reset field, every value is a member with all below it.
    if (reset === undefined && place === ELSEWHERE && owned) return this.member(value, t);
    const rt = resolveType(t, value);
    if (rt.kind === 'map' && !rt.atomic && isObject(value) && !isEmptyObject(value)) {
      return this.mapLevel(undefined, value, rt, reset, place, owned);
    }
    if (rt.kind === 'list' && !rt.atomic && Array.isArray(value) && value.length > 0) {
      return this.listLevel(value, rt, reset, owned);
    }
    return owned ? EMPTY : undefined;
  }

  /**
   * {@link added} of a value that is a member, outside the root and any reset field: its
   * element, with everything below it when it is a granular map or list that is not empty. The
   * usual path of a create, which adds the whole object below its root.
   */
  private member(value: unknown, t: TypeNode): JsonObject {
    const rt = t.kind === 'deduced' ? resolveType(t, value) : t;
    if (rt.kind === 'scalar' || rt.atomic || value === null || typeof value !== 'object') return EMPTY;
    if (rt.kind === 'map') {
      if (Array.isArray(value)) return EMPTY;
      const from = this.top;
      const declaredFrom = this.declaredTop;
      if (this.pushDeclaredInRankOrder(value as Record<string, unknown>, rt)) {
        const declaredTo = this.declaredTop;
        for (let i = declaredFrom; i < declaredTo; i++) {
          const f = this.declared[i]!;
          const v = (value as Record<string, unknown>)[f.name];
          if (v !== undefined) this.push(f.element.id, this.member(v, f.type));
        }
        this.declaredTop = declaredFrom;
        return this.close(from, true) as JsonObject;
      }
      return this.mapLevel(undefined, value as Record<string, unknown>, rt, undefined, ELSEWHERE, true) as JsonObject;
    }
    if (!Array.isArray(value) || value.length === 0) return EMPTY;
    return this.listLevel(value, rt, undefined, true) as JsonObject;
  }

  /**
   * The level of map `rm`: each of its keys that holds a value and has a type, in `fieldsV1`
   * order, compared with `lm`'s (undefined: the map was added, so is everything in it).
   */
  private mapLevel(
    lm: Record<string, unknown> | undefined,
    rm: Record<string, unknown>,
    t: MapType,
    reset: FieldSet | undefined,
    place: Place,
    member: boolean,
  ): Level {
    const from = this.top;
    const declaredFrom = this.declaredTop;
    if (this.pushDeclaredInRankOrder(rm, t)) {
      // Levels below push their fields after these, and leave the stack as they found it.
      const declaredTo = this.declaredTop;
      for (let i = declaredFrom; i < declaredTo; i++) {
        const f = this.declared[i]!;
        const sub = this.field(lm, rm, f.name, f.type, f.element, reset, place);
        if (sub === UNDECIDED) {
          this.declaredTop = declaredFrom;
          return this.undecided(from);
        }
        if (sub) this.push(f.element.id, sub);
      }
      this.declaredTop = declaredFrom;
    } else {
      for (const key of keysInGoOrder(rm)) {
        const ft = fieldType(t, key);
        if (!ft) continue;
        const pe = t.declared?.get(key)?.element;
        const sub = this.field(lm, rm, key, ft, pe, reset, place);
        if (sub === UNDECIDED) return this.undecided(from);
        if (sub) this.push(pe ? pe.id : `f:${key}`, sub);
      }
    }
    return this.close(from, member);
  }

  /**
   * Pushes the declared fields `rm` names onto {@link declared}, in rank order (`fieldsV1`
   * order), by insertion: objects are small and usually close to ordered. Keys the struct does
   * not declare are left out when it has no map part (they have no type); with one, pushes nothing
   * and returns false: the caller then orders by name.
   */
  private pushDeclaredInRankOrder(rm: Record<string, unknown>, t: MapType): boolean {
    const declared = t.declared;
    if (!declared) return false;
    const out = this.declared;
    const from = this.declaredTop;
    let to = from;
    for (const key in rm) {
      const f = declared.get(key);
      if (!f) {
        if (t.element) {
          this.declaredTop = from;
          return false;
        }
        continue;
      }
      let i = to++;
      for (; i > from && out[i - 1]!.rank > f.rank; i--) out[i] = out[i - 1]!;
      out[i] = f;
    }
    this.declaredTop = to;
    return true;
  }

  /** The level of `rm[key]` (of type `ft`; `pe` its element when declared) below a map level. */
  private field(
    lm: Record<string, unknown> | undefined,
    rm: Record<string, unknown>,
    key: string,
    ft: TypeNode,
    pe: FieldElement | undefined,
    reset: FieldSet | undefined,
    place: Place,
  ): Level {
    const value = rm[key];
    if (value === undefined) return undefined;
    const lhs = lm?.[key];
    const r = reset?.get(pe ?? fieldElement(key));
    const below = place === ROOT && key === 'metadata' ? METADATA : ELSEWHERE;
    if (r?.member) {
      // Reset with all below it; a compared part may still be one this walk cannot decide.
      if (lhs === undefined) return undefined;
      return this.compared(lhs, value, ft, undefined, below, false) === UNDECIDED ? UNDECIDED : undefined;
    }
    const owned = this.owns(place, key);
    return lhs === undefined
      ? this.added(value, ft, r?.children, below, owned)
      : this.compared(lhs, value, ft, r?.children, below, owned);
  }

  /** Whether field `key` of a level at `place` may be a member. */
  private owns(place: Place, key: string): boolean {
    if (place === ELSEWHERE) return true;
    return !(place === ROOT ? UNRECORDED_AT_ROOT : this.stripped).has(key);
  }

  /**
   * The level of list `list`, all of whose items were added: each item with a path element, in
   * `fieldsV1` order; an element that repeats is a member alone, as the comparison has it.
   */
  private listLevel(list: unknown[], t: ListType, reset: FieldSet | undefined, member: boolean): Level {
    const itemsFrom = this.itemTop;
    this.pushDistinctItems(list, t);
    const itemsTo = this.itemTop;
    sortItems(this.itemPes, this.itemValues, this.itemRepeated, itemsFrom, itemsTo);
    const from = this.top;
    for (let i = itemsFrom; i < itemsTo; i++) {
      const pe = this.itemPes[i]!;
      const r = reset?.get(pe);
      if (r?.member) continue;
      const sub = this.itemRepeated[i]
        ? EMPTY
        : this.added(this.itemValues[i], t.element, r?.children, ELSEWHERE, true);
      if (sub === UNDECIDED) {
        this.itemTop = itemsFrom;
        return this.undecided(from);
      }
      if (sub) this.push(pe.id, sub);
    }
    this.itemTop = itemsFrom;
    return this.close(from, member);
  }

  /**
   * Pushes the list's items that have a path element, the first of each element, in list order;
   * an element met again marks its first item as repeated.
   */
  private pushDistinctItems(list: unknown[], t: ListType): void {
    const from = this.itemTop;
    const pes = this.itemPes;
    let byId: Map<string, number> | undefined;
    for (const item of list) {
      // Each item is identified once here, so `ItemKeys`' memory would only cost.
      const pe = tryListItemElement(t, item);
      if (!pe) continue;
      const seen = byId ? byId.get(pe.id) : scannedItem(pes, from, this.itemTop, pe.id);
      if (seen !== undefined) {
        this.itemRepeated[seen] = true;
        continue;
      }
      const at = this.itemTop++;
      pes[at] = pe;
      this.itemValues[at] = item;
      this.itemRepeated[at] = false;
      if (byId) byId.set(pe.id, at);
      else if (at - from >= SCANNED_ITEMS) {
        byId = new Map();
        for (let i = from; i <= at; i++) byId.set(pes[i]!.id, i);
      }
    }
  }

  private push(id: string, sub: JsonObject): void {
    this.ids[this.top] = id;
    this.subs[this.top] = sub;
    this.top++;
  }

  /**
   * The level whose keys were pushed since `from` (a member with nothing below it is `{}`), or
   * undefined when it is neither a member nor has members below it.
   */
  private close(from: number, member: boolean): JsonObject | undefined {
    const to = this.top;
    this.top = from;
    if (to === from) return member ? EMPTY : undefined;
    return this.levels.level(this.ids, this.subs, from, to, member);
  }

  private undecided(from: number): typeof UNDECIDED {
    this.top = from;
    return UNDECIDED;
  }
}

/** A leaf that changed: a member when `owned`; nothing when it did not change. */
function changedLeaf(lhs: unknown, rhs: unknown, owned: boolean): Level {
  return owned && !valueEquals(lhs, rhs) ? EMPTY : undefined;
}

/** The keys of `rm` in Go's byte order; sorted only when they are not already. */
function keysInGoOrder(rm: Record<string, unknown>): string[] {
  const keys = Object.keys(rm);
  for (let i = 1; i < keys.length; i++) {
    if (compareGoStrings(keys[i - 1], keys[i]) > 0) return keys.sort(compareGoStrings);
  }
  return keys;
}

/** Where among `pes[from..to)` an element with `id` is, or undefined. */
function scannedItem(pes: readonly PathElement[], from: number, to: number, id: string): number | undefined {
  for (let i = from; i < to; i++) if (pes[i]!.id === id) return i;
  return undefined;
}

/** Up to this many items, an unordered list's items are sorted by insertion, in place. */
const INSERTION_SORTED_ITEMS = 16;

/** Sorts the items at `[from, to)` of the three parallel stacks by path element. */
function sortItems(pes: PathElement[], values: unknown[], repeated: boolean[], from: number, to: number): void {
  let ordered = true;
  for (let i = from + 1; i < to && ordered; i++) ordered = comparePathElements(pes[i - 1]!, pes[i]!) <= 0;
  if (ordered) return;
  if (to - from <= INSERTION_SORTED_ITEMS) {
    for (let i = from + 1; i < to; i++) {
      const pe = pes[i]!;
      const value = values[i];
      const rep = repeated[i]!;
      let j = i;
      for (; j > from && comparePathElements(pes[j - 1]!, pe) > 0; j--) {
        pes[j] = pes[j - 1]!;
        values[j] = values[j - 1];
        repeated[j] = repeated[j - 1]!;
      }
      pes[j] = pe;
      values[j] = value;
      repeated[j] = rep;
    }
    return;
  }
  const order = Array.from({ length: to - from }, (_, k) => from + k).sort((x, y) =>
    comparePathElements(pes[x]!, pes[y]!),
  );
  const sortedPes = order.map((i) => pes[i]!);
  const sortedValues = order.map((i) => values[i]);
  const sortedRepeated = order.map((i) => repeated[i]!);
  for (let k = 0; k < order.length; k++) {
    pes[from + k] = sortedPes[k]!;
    values[from + k] = sortedValues[k];
    repeated[from + k] = sortedRepeated[k]!;
  }
}
