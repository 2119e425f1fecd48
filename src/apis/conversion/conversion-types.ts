/**
 * The vocabulary of manifest conversion: a kind's family of versions around one hub (the served
 * version the others convert through, as kube converts through its internal type), and the typed
 * errors a conversion ends in. Pure data; nothing here reads a global.
 */
import type { ApiDomain } from '../api-domain.js';
import type { ApiObject } from '../object.js';

/** A group and version: `apps/v1`, `v1` (core group ''). */
export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

/** `apps/v1`, or `v1` for the core group. */
export function formatGroupVersion(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/**
 * Go's `schema.ParseGroupVersion`: `v1` is the core group, `g/v` a named one; an empty string is
 * the empty version; anything with more slashes is refused with kube's message.
 */
export function parseGroupVersion(text: string): GroupVersion {
  if (text === '' || text === '/') return { group: '', version: '' };
  const parts = text.split('/');
  if (parts.length === 1) return { group: '', version: parts[0] };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  throw new ConversionError(`unexpected GroupVersion string: ${text}`);
}

/** What a conversion function may consult: the domain the names come from. */
export interface ConversionContext {
  readonly domain: ApiDomain;
}

/** A conversion of one object's body; returns a new object (the input is never changed). */
export type ConvertFn = (obj: ApiObject, ctx: ConversionContext) => ApiObject;

/** A served version of a kind; `toHub`/`fromHub` are absent for the hub itself. */
export interface ServedVersion extends GroupVersion {
  readonly toHub?: ConvertFn;
  readonly fromHub?: ConvertFn;
}

/** A version no longer served: readable into the hub, never a target. */
export interface RemovedVersion extends GroupVersion {
  readonly toHub: ConvertFn;
}

/**
 * One kind in every version this tool reads. `internal` is kube's internal type name
 * (`apps.Deployment`), which kube's conversion errors name. `served[0]` is the hub and the version
 * a manifest converts to when no output version is given.
 */
export interface KindFamily {
  readonly kind: string;
  readonly internal: string;
  readonly served: readonly ServedVersion[];
  readonly removed: readonly RemovedVersion[];
}

/** The scheme name kubectl-convert's errors quote. */
export const SCHEME_NAME = 'pkg/api/legacyscheme/scheme.go:30';

/** A conversion failed; `message` is one line, ready after `error: `. */
export class ConversionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConversionError';
  }
}

/** kube's not-registered error on decoding: the kind is unknown in that group and version. */
export class KindNotRegisteredError extends ConversionError {
  constructor(
    readonly kind: string,
    readonly apiVersion: string,
  ) {
    super(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "${SCHEME_NAME}"`);
    this.name = 'KindNotRegisteredError';
  }
}

/** kube's not-registered error on converting: the kind has no such target version. */
export class NotSuitableForTargetError extends ConversionError {
  constructor(
    readonly internal: string,
    readonly target: string,
  ) {
    super(`${internal} is not suitable for converting to "${target}" in scheme "${SCHEME_NAME}"`);
    this.name = 'NotSuitableForTargetError';
  }
}

/** The object cannot be expressed in the target version; `problems` are field errors in kube's form. */
export class ConversionRefusedError extends ConversionError {
  constructor(
    readonly kind: string,
    readonly objectName: string,
    readonly problems: readonly string[],
  ) {
    super(
      `${kind} "${objectName}" cannot be converted: ${problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`}`,
    );
    this.name = 'ConversionRefusedError';
  }
}
