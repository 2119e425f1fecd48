import {
  CRD_CONDITIONS,
  type CustomResourceDefinition,
  type CustomResourceDefinitionCondition,
  type CustomResourceDefinitionNames,
  crdCondition,
} from '../../apis/apiextensions/crd-types.js';
import { jsonEqual } from '../../apis/schema/json-value.js';

/** The resource and kind names already taken in one API group. */
export interface UsedNames {
  /** Plural, singular and short names. */
  readonly resources: ReadonlySet<string>;
  /** Kinds and list kinds. */
  readonly kinds: ReadonlySet<string>;
}

/**
 * The names taken in `group` by the other CRDs (their accepted names) and by the resources the
 * server serves itself (`builtin`), for the naming of `crd`.
 */
export function usedNames(
  crd: CustomResourceDefinition,
  others: readonly CustomResourceDefinition[],
  builtin: UsedNames,
): UsedNames {
  const resources = new Set(builtin.resources);
  const kinds = new Set(builtin.kinds);
  for (const other of others) {
    if (other.metadata.name === crd.metadata.name || other.spec?.group !== crd.spec?.group) continue;
    const n = other.status?.acceptedNames ?? {};
    for (const r of [n.plural, n.singular, ...(n.shortNames ?? [])]) if (r) resources.add(r);
    for (const k of [n.kind, n.listKind]) if (k) kinds.add(k);
  }
  return { resources, kinds };
}

/** kube's `equalToAcceptedOrFresh`: undefined when the name may be accepted, else the conflict. */
function conflict(
  requested: string | undefined,
  accepted: string | undefined,
  used: ReadonlySet<string>,
): string | undefined {
  const want = requested ?? '';
  if (want === (accepted ?? '')) return undefined;
  if (!used.has(want)) return undefined;
  return `${JSON.stringify(want)} is already in use`;
}

/** What the naming controller writes to a CRD's status. */
export interface NamingResult {
  readonly acceptedNames: CustomResourceDefinitionNames;
  readonly namesAccepted: CustomResourceDefinitionCondition;
  readonly established: CustomResourceDefinitionCondition;
}

/**
 * kube's naming controller (`calculateNamesAndConditions`): each requested name (plural,
 * singular, short names, kind, list kind) is accepted unless another CRD of the group (or a
 * resource the server serves itself) holds it; a conflict keeps the previously accepted name and
 * sets `NamesAccepted` False with the conflict's reason (`PluralConflict`, ...). Categories are
 * always accepted. `Established` becomes False `Installing` once all names are accepted (it is
 * left alone when already True). Pure.
 */
export function calculateNames(crd: CustomResourceDefinition, used: UsedNames): NamingResult {
  const requested = crd.spec?.names ?? {};
  const accepted = crd.status?.acceptedNames ?? {};
  const next: CustomResourceDefinitionNames = { ...accepted };
  let namesAccepted: CustomResourceDefinitionCondition = { type: CRD_CONDITIONS.namesAccepted, status: 'Unknown' };
  const fail = (reason: string, message: string) => {
    namesAccepted = { type: CRD_CONDITIONS.namesAccepted, status: 'False', reason, message };
  };
  const plural = conflict(requested.plural, accepted.plural, used.resources);
  if (plural) fail('PluralConflict', plural);
  else next.plural = requested.plural;
  const singular = conflict(requested.singular, accepted.singular, used.resources);
  if (singular) fail('SingularConflict', singular);
  else next.singular = requested.singular;
  if (!jsonEqual(requested.shortNames, accepted.shortNames)) {
    const existing = new Set(accepted.shortNames ?? []);
    const errs = (requested.shortNames ?? [])
      .filter((s) => !existing.has(s))
      .map((s) => conflict(s, '', used.resources))
      .filter((e): e is string => e !== undefined);
    if (errs.length > 0) fail('ShortNamesConflict', errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
    else next.shortNames = requested.shortNames;
  }
  const kind = conflict(requested.kind, accepted.kind, used.kinds);
  if (kind) fail('KindConflict', kind);
  else next.kind = requested.kind;
  const listKind = conflict(requested.listKind, accepted.listKind, used.kinds);
  if (listKind) fail('ListKindConflict', listKind);
  else next.listKind = requested.listKind;
  next.categories = requested.categories;
  if (next.categories === undefined) delete next.categories;
  if (next.shortNames === undefined) delete next.shortNames;
  if (namesAccepted.status === 'Unknown') {
    namesAccepted = {
      type: CRD_CONDITIONS.namesAccepted,
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
    };
  }
  let established: CustomResourceDefinitionCondition = crdCondition(crd, CRD_CONDITIONS.established) ?? {
    type: CRD_CONDITIONS.established,
    status: 'False',
    reason: 'NotAccepted',
    message: 'not all names are accepted',
  };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = {
      type: CRD_CONDITIONS.established,
      status: 'False',
      reason: 'Installing',
      message: 'the initial names have been accepted',
    };
  }
  return { acceptedNames: next, namesAccepted, established };
}

/** Whether two conditions say the same (type, status, reason, message; times aside). */
export function sameCondition(
  a: CustomResourceDefinitionCondition | undefined,
  b: CustomResourceDefinitionCondition | undefined,
): boolean {
  if (!a || !b) return a === b;
  return (
    a.type === b.type &&
    a.status === b.status &&
    (a.reason ?? '') === (b.reason ?? '') &&
    (a.message ?? '') === (b.message ?? '')
  );
}
