/**
 * kube's validation of probes and lifecycle handlers: exactly one handler type, its fields, the
 * probe's counters non-negative, liveness and startup probes with `successThreshold` 1.
 */
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import type { IntOrString, Lifecycle, Probe, ProbeHandler } from './pod-types.js';
import { isHTTPHeaderName, isValidPortName, isValidPortNum } from './value-formats.js';

const NOT_NEGATIVE = 'must be greater than or equal to 0';

/** kube's `ValidatePortNumOrName`. */
export function validatePortNumOrName(port: IntOrString | undefined, path: string): FieldError[] {
  // An unset IntOrString is the integer 0.
  if (typeof port !== 'string') return isValidPortNum(port ?? 0).map((m) => fieldErrors.invalid(path, port ?? 0, m));
  return isValidPortName(port).map((m) => fieldErrors.invalid(path, port, m));
}

/** Whether {@link validatePortNumOrName} has nothing to report (so the port's path need not be written). */
function isValidPort(port: IntOrString | undefined): boolean {
  return (typeof port === 'string' ? isValidPortName(port) : isValidPortNum(port ?? 0)).length === 0;
}

type HandlerKind = 'exec' | 'httpGet' | 'tcpSocket' | 'grpc' | 'sleep';

function validateAction(kind: HandlerKind, h: ProbeHandler, path: string, gracePeriod?: number): FieldError[] {
  switch (kind) {
    case 'exec':
      return (h.exec?.command ?? []).length === 0 ? [fieldErrors.required(`${path}.command`)] : [];
    case 'httpGet': {
      const http = h.httpGet ?? {};
      const errs: FieldError[] = [];
      if (!http.path) errs.push(fieldErrors.required(`${path}.path`));
      if (!isValidPort(http.port)) errs.push(...validatePortNumOrName(http.port, `${path}.port`));
      if (http.scheme !== 'HTTP' && http.scheme !== 'HTTPS') {
        errs.push(fieldErrors.notSupported(`${path}.scheme`, http.scheme ?? '', ['HTTP', 'HTTPS']));
      }
      for (const header of http.httpHeaders ?? []) {
        for (const m of isHTTPHeaderName(header.name ?? '')) {
          errs.push(fieldErrors.invalid(`${path}.httpHeaders`, header.name ?? '', m));
        }
      }
      return errs;
    }
    case 'tcpSocket':
      return validatePortNumOrName(h.tcpSocket?.port, `${path}.port`);
    case 'grpc':
      return validatePortNumOrName(h.grpc?.port ?? 0, `${path}.port`);
    case 'sleep': {
      const seconds = h.sleep?.seconds ?? 0;
      if (gracePeriod !== undefined && (seconds <= 0 || seconds > gracePeriod)) {
        return [
          fieldErrors.invalid(
            path,
            seconds,
            `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`,
          ),
        ];
      }
      return [];
    }
  }
}

function validateHandler(
  h: ProbeHandler,
  kinds: readonly HandlerKind[],
  path: string,
  gracePeriod?: number,
): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of kinds) {
    if (h[kind] === undefined || h[kind] === null) continue;
    if (count > 0) {
      errs.push(fieldErrors.forbidden(`${path}.${kind}`, 'may not specify more than 1 handler type'));
    } else {
      count++;
      errs.push(...validateAction(kind, h, `${path}.${kind}`, gracePeriod));
    }
  }
  if (count === 0) errs.push(fieldErrors.required(path, 'must specify a handler type'));
  return errs;
}

const PROBE_HANDLERS: readonly HandlerKind[] = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const PROBE_COUNTERS = [
  'initialDelaySeconds',
  'timeoutSeconds',
  'periodSeconds',
  'successThreshold',
  'failureThreshold',
] as const;
const LIFECYCLE_HANDLERS: readonly HandlerKind[] = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

function validateProbe(p: Probe, path: string): FieldError[] {
  const errs = validateHandler(p, PROBE_HANDLERS, path);
  for (const field of PROBE_COUNTERS) {
    const v = p[field] ?? 0;
    if (v < 0) errs.push(fieldErrors.invalid(`${path}.${field}`, v, NOT_NEGATIVE));
  }
  if (p.terminationGracePeriodSeconds !== undefined && p.terminationGracePeriodSeconds <= 0) {
    errs.push(
      fieldErrors.invalid(
        `${path}.terminationGracePeriodSeconds`,
        p.terminationGracePeriodSeconds,
        'must be greater than 0',
      ),
    );
  }
  return errs;
}

/** Which probe: liveness and startup need `successThreshold` 1; readiness may not set a grace period. */
export type ProbeKind = 'liveness' | 'readiness' | 'startup';

/** kube's `validateLivenessProbe` / `validateReadinessProbe` / `validateStartupProbe`. */
export function validateProbeOfKind(kind: ProbeKind, p: Probe | undefined, path: string): FieldError[] {
  if (!p) return [];
  const errs = validateProbe(p, path);
  if (kind !== 'readiness' && (p.successThreshold ?? 0) !== 1) {
    errs.push(fieldErrors.invalid(`${path}.successThreshold`, p.successThreshold ?? 0, 'must be 1'));
  }
  if (kind === 'readiness' && p.terminationGracePeriodSeconds !== undefined) {
    errs.push(
      fieldErrors.invalid(
        `${path}.terminationGracePeriodSeconds`,
        p.terminationGracePeriodSeconds,
        'must not be set for readinessProbes',
      ),
    );
  }
  return errs;
}

/** kube's `validateLifecycle`: each of `postStart` and `preStop` is a valid handler. */
export function validateLifecycle(l: Lifecycle, path: string, gracePeriod?: number): FieldError[] {
  const errs: FieldError[] = [];
  if (l.postStart) errs.push(...validateHandler(l.postStart, LIFECYCLE_HANDLERS, `${path}.postStart`, gracePeriod));
  if (l.preStop) errs.push(...validateHandler(l.preStop, LIFECYCLE_HANDLERS, `${path}.preStop`, gracePeriod));
  return errs;
}
