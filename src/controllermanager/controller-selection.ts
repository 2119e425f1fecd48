/**
 * `Generic.Controllers` (`--controllers`) and the cloud kind's `Webhook.Webhooks` (`--webhooks`)
 * as kube v1.32 reads them (`IsControllerEnabled` in k8s.io/controller-manager/app, the alias
 * rewriting and `Validate` of its generic options): `*` enables every default-enabled name,
 * `foo` enables `foo`, `-foo` disables it, and for each name the first entry naming it wins (a
 * `*` anywhere only decides names no entry names). Aliases (kube's old short names) stand for
 * their canonical name. Pure: it takes the names as plain data, not the descriptors.
 */

/** A controller (or webhook) as selection knows it: `ControllerDescriptor` fits structurally. */
export interface SelectableName {
  /** The canonical name (`deployment-controller`). */
  readonly name: string;
  /** Other names that stand for it (`deployment`). */
  readonly aliases?: readonly string[];
  /** Part of `*`. */
  readonly enabledByDefault: boolean;
}

/** Which list is being read, for the error wording: `controllers` or `webhooks`. */
export type SelectionSubject = 'controllers' | 'webhooks';

/** The outcome: the enabled canonical names (in `known` order) or every unknown entry. */
export interface Selection {
  readonly enabled: readonly string[];
  /** `"foo" is not in the list of known controllers`, once per unknown entry, in list order. */
  readonly problems: readonly string[];
}

function aliasMap(known: readonly SelectableName[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const k of known) {
    map.set(k.name, k.name);
    for (const a of k.aliases ?? []) if (!map.has(a)) map.set(a, k.name);
  }
  return map;
}

/**
 * The list with aliases replaced by canonical names, keeping `-` and `*` (kube's `ApplyTo` does
 * this before selection, so the effective configuration shows canonical names). Unknown names
 * stay as they are.
 */
export function canonicalizeSelection(list: readonly string[], known: readonly SelectableName[]): string[] {
  const names = aliasMap(known);
  return list.map((entry) => {
    const negated = entry.startsWith('-');
    const bare = negated ? entry.slice(1) : entry;
    const canonical = names.get(bare) ?? bare;
    return negated ? `-${canonical}` : canonical;
  });
}

/**
 * kube's `IsControllerEnabled` for one canonical name over a canonicalized list: the first entry
 * equal to `name` enables, the first `-name` disables; otherwise `*` (anywhere) enables it when
 * it is on by default.
 */
export function isNameEnabled(name: string, enabledByDefault: boolean, list: readonly string[]): boolean {
  let star = false;
  for (const entry of list) {
    if (entry === name) return true;
    if (entry === `-${name}`) return false;
    if (entry === '*') star = true;
  }
  return star && enabledByDefault;
}

/**
 * The names `list` enables among `known`, and a problem for every entry (bare of its `-`) that
 * names nothing known, in kube's words: `"foo" is not in the list of known controllers`.
 * The problems end with `known controllers: a, b, ...` naming the canonical names once, as
 * kube's `--controllers` help lists them.
 */
export function selectNames(
  list: readonly string[],
  known: readonly SelectableName[],
  subject: SelectionSubject = 'controllers',
): Selection {
  const names = aliasMap(known);
  const problems: string[] = [];
  for (const entry of list) {
    if (entry === '*') continue;
    const bare = entry.startsWith('-') ? entry.slice(1) : entry;
    if (!names.has(bare)) problems.push(`${JSON.stringify(bare)} is not in the list of known ${subject}`);
  }
  if (problems.length > 0) problems.push(`known ${subject}: ${known.map((k) => k.name).join(', ')}`);
  const canonical = canonicalizeSelection(list, known);
  const enabled = known.filter((k) => isNameEnabled(k.name, k.enabledByDefault, canonical)).map((k) => k.name);
  return { enabled, problems };
}
