import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ListOptions } from '../types.js';
import { checkListOptions } from './list-options-validation.js';

/**
 * How a list must be served, from the spec's resourceVersion table:
 * - `latest`: most recent, consistent (resourceVersion unset);
 * - `any`: any version, freshest preferred (`0`);
 * - `notOlderThan`: at least `revision`;
 * - `exact`: exactly `revision` (410 when no longer retained);
 * - `continue`: the page after `startAfter`, at the first page's `revision`.
 */
export type ListSemantics =
  | { readonly kind: 'latest' }
  | { readonly kind: 'any' }
  | { readonly kind: 'notOlderThan'; readonly revision: bigint }
  | { readonly kind: 'exact'; readonly revision: bigint }
  | { readonly kind: 'continue'; readonly revision: bigint; readonly startAfter: string };

export interface ContinueToken {
  /** The revision of the first page: every page is read at it. */
  readonly rv: string;
  /** The key (relative to the collection prefix) of the last item returned. */
  readonly start: string;
}

/** Tokens carry `<meta group>/v1` as their version, as kube's say `meta.k8s.io/v1`. */
function tokenVersion(metaGroup: string): string {
  return `${metaGroup}/v1`;
}

export function encodeContinue(t: ContinueToken, metaGroup: string): string {
  return Buffer.from(JSON.stringify({ v: tokenVersion(metaGroup), rv: t.rv, start: t.start })).toString('base64url');
}

const NOT_VALID = 'continue key is not valid';

/** Why a continue token does not decode, in the words of kube's `DecodeContinue`. */
function continueTokenProblem(token: string, metaGroup: string): string | ContinueToken {
  const version = tokenVersion(metaGroup);
  // Unpadded URL-safe base64, as kube encodes it: any other character is rejected.
  const bad = /[^A-Za-z0-9_-]/.exec(token);
  if (bad) return `${NOT_VALID}: illegal base64 data at input byte ${bad.index}`;
  if (token.length % 4 === 1) return `${NOT_VALID}: illegal base64 data at input byte ${token.length - 1}`;
  let t: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (e) {
    return `${NOT_VALID}: ${(e as Error).message}`;
  }
  if (t === null || typeof t !== 'object') return `${NOT_VALID}: not a continue token object`;
  if (t.v !== version) return `${NOT_VALID}: server does not recognize this encoded version ${String(t.v ?? '')}`;
  if (typeof t.rv !== 'string' || !/^[1-9][0-9]{0,18}$/.test(t.rv)) {
    return `${NOT_VALID}: incorrect encoded start resourceVersion (version ${version})`;
  }
  if (typeof t.start !== 'string' || t.start === '') {
    return `${NOT_VALID}: encoded start key empty (version ${version})`;
  }
  // A start key that would leave the collection (`..`, absolute, doubled slashes) is refused.
  if (t.start.startsWith('/') || t.start.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) {
    return `${NOT_VALID}: ${t.start}`;
  }
  return { rv: t.rv, start: t.start };
}

/** Decodes a continue token; a malformed one is kube's 400 `invalid continue token: …`. */
export function decodeContinue(token: string, metaGroup: string): ContinueToken {
  const r = continueTokenProblem(token, metaGroup);
  if (typeof r === 'string') throw apiErrors.badRequest(`invalid continue token: ${r}`);
  return r;
}

/** Parses a resourceVersion parameter: a decimal revision; anything else is a 400. */
export function parseResourceVersion(rv: string): bigint {
  if (!/^[0-9]+$/.test(rv) || rv.length > 19) {
    throw new StatusError(
      400,
      'BadRequest',
      `resourceVersion: Invalid value: "${rv}": strconv.ParseUint: parsing "${rv}": invalid syntax`,
    );
  }
  return BigInt(rv);
}

/**
 * Classifies list options per the spec's table, checking in kube's order: the combination of
 * options (422 listing every error), then the continue token (400), then a resourceVersion
 * given with it (400), then the resourceVersion itself (400).
 */
export function listSemantics(o: ListOptions, metaGroup: string): ListSemantics {
  checkListOptions(o, { watch: false, metaGroup });
  const rv = o.resourceVersion;
  const match = o.resourceVersionMatch;
  const hasRv = rv !== undefined && rv !== '';
  if (o.continue) {
    const t = decodeContinue(o.continue, metaGroup);
    if (hasRv && rv !== '0') {
      throw apiErrors.badRequest('specifying resource version is not allowed when using continue');
    }
    return { kind: 'continue', revision: BigInt(t.rv), startAfter: t.start };
  }
  if (!hasRv) return { kind: 'latest' };
  const revision = parseResourceVersion(rv);
  if (match === 'Exact') return { kind: 'exact', revision };
  if (revision === 0n) return { kind: 'any' };
  if (match === 'NotOlderThan') return { kind: 'notOlderThan', revision };
  // A limit turns a plain resourceVersion into an exact read (the first page of a snapshot).
  return o.limit ? { kind: 'exact', revision } : { kind: 'notOlderThan', revision };
}

/** The 410 Expired message for a list at a compacted resourceVersion (kube's storage wording). */
export const EXPIRED_LIST = 'The resourceVersion for the provided list is too old.';

/** The 410 Expired message for a continue token whose snapshot was compacted (kube's wording). */
export const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';
