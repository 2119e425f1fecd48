import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ListOptions } from '../types.js';

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

const TOKEN_VERSION = 'orch.io/v1';

export function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: TOKEN_VERSION, rv: t.rv, start: t.start })).toString('base64url');
}

export function decodeContinue(token: string): ContinueToken {
  try {
    const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      v?: string;
      rv?: string;
      start?: string;
    };
    if (
      t.v !== TOKEN_VERSION ||
      typeof t.rv !== 'string' ||
      !/^[1-9][0-9]*$/.test(t.rv) ||
      typeof t.start !== 'string'
    ) {
      throw new Error('bad token');
    }
    if (t.start.includes('..') || t.start.startsWith('/')) throw new Error('bad start key');
    return { rv: t.rv, start: t.start };
  } catch {
    throw apiErrors.badRequest(
      `continue key is not valid: incorrect encoded start resourceVersion (version ${TOKEN_VERSION})`,
    );
  }
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

// kube reports these as ListOptions validation errors; Orch answers them 400 (as its API
// contract states for every invalid resourceVersion combination) with kube's wording.
function invalid(detail: string): StatusError {
  return new StatusError(400, 'BadRequest', `ListOptions.meta.orch.io "" is invalid: ${detail}`, {
    kind: 'ListOptions',
    group: 'meta.orch.io',
    causes: [{ reason: 'FieldValueForbidden', message: detail.replace(/^[^:]+: /, ''), field: detail.split(':')[0] }],
  });
}

/** Classifies list options per the spec's table; invalid combinations are rejected. */
export function listSemantics(o: ListOptions): ListSemantics {
  const rv = o.resourceVersion;
  const match = o.resourceVersionMatch;
  const hasRv = rv !== undefined && rv !== '';
  if (match !== undefined && match !== 'Exact' && match !== 'NotOlderThan') {
    throw invalid(`resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`);
  }
  if (o.continue) {
    if (match) throw invalid('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for continue');
    if (hasRv && rv !== '0') {
      throw apiErrors.badRequest('specifying resource version is not allowed when using continue');
    }
    const t = decodeContinue(o.continue);
    return { kind: 'continue', revision: BigInt(t.rv), startAfter: t.start };
  }
  if (match !== undefined) {
    if (!hasRv)
      throw invalid(
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      );
    const revision = parseResourceVersion(rv);
    if (match === 'Exact') {
      if (revision === 0n)
        throw invalid(
          'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
        );
      return { kind: 'exact', revision };
    }
    return revision === 0n ? { kind: 'any' } : { kind: 'notOlderThan', revision };
  }
  if (!hasRv) return { kind: 'latest' };
  const revision = parseResourceVersion(rv);
  if (revision === 0n) return { kind: 'any' };
  // A limit turns a plain resourceVersion into an exact read (the first page of a snapshot).
  return o.limit ? { kind: 'exact', revision } : { kind: 'notOlderThan', revision };
}

/** The 410 Expired message for a continue token whose snapshot was compacted (kube's wording). */
export const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';
