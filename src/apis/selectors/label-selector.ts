import { compareGoStrings } from '../../util/go-strings.js';
import { type LabelRequirement, requirementMatches, requirementString } from './label-requirement.js';
import { parseLabelRequirements } from './label-selector-parser.js';

/**
 * A parsed label selector: the AND of its requirements, sorted by key (as kube sorts them). Plain
 * frozen data; use `matchesLabels` and friends on it.
 */
export interface LabelSelector {
  readonly requirements: readonly LabelRequirement[];
  /** True when it restricts nothing: no requirements (kube's `Everything()`). */
  readonly empty: boolean;
  /** True for kube's `Nothing()` (a nil `metav1.LabelSelector`): matches no object at all. */
  readonly matchesNothing: boolean;
}

/** The selector that matches every label set. */
export const EVERYTHING_LABEL_SELECTOR: LabelSelector = Object.freeze({
  requirements: Object.freeze([]),
  empty: true,
  matchesNothing: false,
});

/** The selector that matches no label set. */
export const NOTHING_LABEL_SELECTOR: LabelSelector = Object.freeze({
  requirements: Object.freeze([]),
  empty: false,
  matchesNothing: true,
});

/** A selector over already validated requirements, sorted by key (stable for equal keys). */
export function labelSelectorOf(requirements: readonly LabelRequirement[]): LabelSelector {
  if (requirements.length === 0) return EVERYTHING_LABEL_SELECTOR;
  const sorted = [...requirements].sort((a, b) => compareGoStrings(a.key, b.key));
  return Object.freeze({ requirements: Object.freeze(sorted), empty: false, matchesNothing: false });
}

/**
 * Parses a `labelSelector` as kube's `labels.Parse` does:
 * `<requirement>[,<requirement>...]` where a requirement is `key`, `!key`, `key=v`, `key==v`,
 * `key!=v`, `key in (a,b)`, `key notin (a,b)`, `key>n` or `key<n`. Keys must be qualified names
 * and values label values. Whitespace (space, tab, CR, LF) separates tokens; the empty string
 * (or only whitespace) is the empty selector.
 *
 * @throws SelectorParseError with kube's message, e.g. `unable to parse requirement: found '',
 *   expected: identifier` or `found ')', expected: !, identifier, or 'end of string'`.
 */
export function parseLabelSelector(text: string): LabelSelector {
  return labelSelectorOf(parseLabelRequirements(text));
}

/**
 * Whether `labels` satisfies every requirement. A missing label set is the empty set. The
 * nothing-selector matches nothing.
 */
export function matchesLabels(selector: LabelSelector, labels?: Readonly<Record<string, string>> | null): boolean {
  if (selector.matchesNothing) return false;
  const set = labels ?? {};
  return selector.requirements.every((r) => requirementMatches(r, set));
}

/** kube's `Selector.String()`: requirements joined with `,` (empty for everything and nothing). */
export function labelSelectorString(selector: LabelSelector): string {
  return selector.requirements.map(requirementString).join(',');
}

/**
 * kube's `RequiresExactMatch`: the value `key` must equal when the first requirement on `key` is
 * `=`, `==` or a one-value `in`; undefined otherwise.
 */
export function labelRequiresExactMatch(selector: LabelSelector, key: string): string | undefined {
  const r = selector.requirements.find((req) => req.key === key);
  if (!r) return undefined;
  const exact = r.operator === '=' || r.operator === '==' || r.operator === 'in';
  return exact && r.values.length === 1 ? r.values[0] : undefined;
}

/**
 * kube's `SelectorFromValidatedSet`: `key=value` for every entry, without validation; an empty
 * set gives the everything-selector.
 */
export function labelSelectorFromSet(set: Readonly<Record<string, string>>): LabelSelector {
  return labelSelectorOf(
    Object.entries(set).map(([key, value]) =>
      Object.freeze({ key, operator: '=' as const, values: Object.freeze([value]) }),
    ),
  );
}
