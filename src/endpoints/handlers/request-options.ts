import { apiErrors, StatusError } from '../../apis/meta/status.js';
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
  if (!/^-?[0-9]+$/.test(value))
    throw apiErrors.badRequest(`invalid value for ${name}: "${value}": must be an integer`);
  return Number(value);
}

const PROPAGATION_POLICIES = ['Orphan', 'Background', 'Foreground'];

/** Delete options from the query and, when present, a `DeleteOptions` body (the body wins). */
export function parseDeleteOptions(
  query: URLSearchParams,
  body: Record<string, unknown> | undefined,
): DeleteOptions & {
  propagationPolicy?: string;
  orphanDependents?: boolean;
} {
  let dryRun = parseDryRun(query.getAll('dryRun'));
  let gracePeriodSeconds: number | undefined;
  const gp = query.get('gracePeriodSeconds');
  if (gp !== null && gp !== '') gracePeriodSeconds = parseIntParam('gracePeriodSeconds', gp);
  let propagationPolicy = query.get('propagationPolicy') ?? undefined;
  let orphanDependents: boolean | undefined;
  const od = query.get('orphanDependents');
  if (od !== null && od !== '') orphanDependents = od === 'true' || od === '1';
  let preconditions: Preconditions | undefined;
  if (body) {
    if (body.kind !== undefined && body.kind !== 'DeleteOptions') {
      throw apiErrors.badRequest(`expected a DeleteOptions body, got kind "${String(body.kind)}"`);
    }
    if (Array.isArray(body.dryRun)) dryRun = parseDryRun(body.dryRun.map(String)) || dryRun;
    if (body.gracePeriodSeconds !== undefined && body.gracePeriodSeconds !== null) {
      if (typeof body.gracePeriodSeconds !== 'number' || !Number.isInteger(body.gracePeriodSeconds)) {
        throw apiErrors.badRequest('gracePeriodSeconds: must be an integer');
      }
      gracePeriodSeconds = body.gracePeriodSeconds;
    }
    if (typeof body.propagationPolicy === 'string') propagationPolicy = body.propagationPolicy;
    if (typeof body.orphanDependents === 'boolean') orphanDependents = body.orphanDependents;
    const p = body.preconditions as Record<string, unknown> | undefined;
    if (p && typeof p === 'object') {
      preconditions = {
        uid: typeof p.uid === 'string' ? p.uid : undefined,
        resourceVersion: typeof p.resourceVersion === 'string' ? p.resourceVersion : undefined,
      };
    }
  }
  if (propagationPolicy !== undefined && !PROPAGATION_POLICIES.includes(propagationPolicy)) {
    throw new StatusError(
      400,
      'BadRequest',
      `propagationPolicy: Unsupported value: "${propagationPolicy}": supported values: "Foreground", "Background", "Orphan"`,
    );
  }
  if (gracePeriodSeconds !== undefined && gracePeriodSeconds < 0) {
    throw apiErrors.badRequest('gracePeriodSeconds: Invalid value: must be greater than or equal to 0');
  }
  return {
    dryRun,
    gracePeriodSeconds,
    preconditions,
    propagationPolicy: propagationPolicy as PropagationPolicy | undefined,
    orphanDependents,
  };
}
