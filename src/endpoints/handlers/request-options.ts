import { apiErrors, StatusError } from '../../apis/meta/status.js';
import { parseUnsafeDeleteOption } from '../../registry/generic/delete-options.js';
import type { DeleteOptions, Preconditions, PropagationPolicy } from '../../registry/types.js';

/**
 * `dryRun`: absent or empty means a real request; `All` (possibly repeated) means dry run;
 * any other value is a 400.
 */
export function parseDryRun(values: readonly string[]): boolean {
  let dry = false;
  for (const v of values) {
    if (v === '') continue;
    if (v !== 'All') {
      throw new StatusError(400, 'BadRequest', `Invalid dryRun value: "${v}": supported values: "All"`, {
        causes: [
          {
            reason: 'FieldValueNotSupported',
            message: `Unsupported value: "${v}": supported values: "All"`,
            field: 'dryRun',
          },
        ],
      });
    }
    dry = true;
  }
  return dry;
}

function parseIntParam(name: string, value: string): number {
  if (!/^-?[0-9]+$/.test(value) || BigInt.asIntN(64, BigInt(value)) !== BigInt(value))
    throw apiErrors.badRequest(`invalid value for ${name}: "${value}": must be an integer`);
  return Number(value);
}

/**
 * Delete options as kube reads them: from a `DeleteOptions` body when there is one, else from
 * the query. Values are checked for type here; the registry validates their combination (422).
 */
export function parseDeleteOptions(query: URLSearchParams, body: Record<string, unknown> | undefined): DeleteOptions {
  const unsafe = parseUnsafeDeleteOption(query, body);
  if (body) return deleteOptionsFromBody(body, unsafe);
  const gp = query.get('gracePeriodSeconds');
  const od = query.get('orphanDependents');
  return {
    dryRun: parseDryRun(query.getAll('dryRun')),
    gracePeriodSeconds: gp !== null && gp !== '' ? gracePeriod(parseIntParam('gracePeriodSeconds', gp)) : undefined,
    propagationPolicy: (query.get('propagationPolicy') || undefined) as PropagationPolicy | undefined,
    orphanDependents: od !== null && od !== '' ? od === 'true' || od === '1' : undefined,
    ignoreStoreReadErrorWithClusterBreakingPotential: unsafe,
  };
}

// kube turns a negative grace period into 1 second.
function gracePeriod(n: number): number {
  return n < 0 ? 1 : n;
}

function deleteOptionsFromBody(body: Record<string, unknown>, unsafe: boolean | undefined): DeleteOptions {
  if (body.kind !== undefined && body.kind !== 'DeleteOptions') {
    throw apiErrors.badRequest(`expected a DeleteOptions body, got kind "${String(body.kind)}"`);
  }
  const typeError = (field: string, type: string) =>
    apiErrors.badRequest(
      `json: cannot unmarshal ${typeof body[field]} into Go struct field DeleteOptions.${field} of type ${type}`,
    );
  const { dryRun, gracePeriodSeconds, propagationPolicy, orphanDependents, preconditions } = body;
  if (dryRun !== undefined && dryRun !== null && !Array.isArray(dryRun)) throw typeError('dryRun', '[]string');
  if (typeof gracePeriodSeconds === 'bigint' && BigInt.asIntN(64, gracePeriodSeconds) !== gracePeriodSeconds) {
    throw apiErrors.badRequest(
      `json: cannot unmarshal number ${gracePeriodSeconds} into Go struct field DeleteOptions.gracePeriodSeconds of type int64`,
    );
  }
  if (
    gracePeriodSeconds !== undefined &&
    gracePeriodSeconds !== null &&
    typeof gracePeriodSeconds !== 'bigint' &&
    !Number.isInteger(gracePeriodSeconds)
  ) {
    throw typeError('gracePeriodSeconds', 'int64');
  }
  if (propagationPolicy !== undefined && propagationPolicy !== null && typeof propagationPolicy !== 'string') {
    throw typeError('propagationPolicy', 'string');
  }
  if (orphanDependents !== undefined && orphanDependents !== null && typeof orphanDependents !== 'boolean') {
    throw typeError('orphanDependents', 'bool');
  }
  let pre: Preconditions | undefined;
  if (preconditions !== undefined && preconditions !== null) {
    if (typeof preconditions !== 'object' || Array.isArray(preconditions))
      throw typeError('preconditions', 'Preconditions');
    const p = preconditions as Record<string, unknown>;
    pre = {
      uid: typeof p.uid === 'string' ? p.uid : undefined,
      resourceVersion: typeof p.resourceVersion === 'string' ? p.resourceVersion : undefined,
    };
  }
  return {
    dryRun: Array.isArray(dryRun) ? parseDryRun(dryRun.map(String)) : false,
    // No served kind deletes gracefully, so a period beyond 2^53 seconds need not stay exact.
    gracePeriodSeconds:
      typeof gracePeriodSeconds === 'number' || typeof gracePeriodSeconds === 'bigint'
        ? gracePeriod(Number(gracePeriodSeconds))
        : undefined,
    propagationPolicy: (propagationPolicy ?? undefined) as PropagationPolicy | undefined,
    orphanDependents: (orphanDependents ?? undefined) as boolean | undefined,
    preconditions: pre,
    ignoreStoreReadErrorWithClusterBreakingPotential: unsafe,
  };
}
