import type { UserInfo } from '../apis/request/user-info.js';
import type { AuditLevel, AuditStage } from './audit-policy.js';

/** `audit.<domain>/v1` `Event`, as kube-apiserver's log backend writes it. */
export interface AuditEvent {
  readonly kind: 'Event';
  readonly apiVersion: string;
  readonly level: AuditLevel;
  readonly auditID: string;
  readonly stage: AuditStage;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: AuditUser;
  readonly impersonatedUser?: AuditUser;
  readonly sourceIPs?: readonly string[];
  readonly userAgent?: string;
  readonly objectRef?: AuditObjectRef;
  readonly responseStatus?: AuditResponseStatus;
  readonly requestObject?: unknown;
  readonly responseObject?: unknown;
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
  readonly annotations?: Readonly<Record<string, string>>;
}

export interface AuditUser {
  readonly username: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export interface AuditObjectRef {
  readonly resource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly apiGroup?: string;
  readonly apiVersion?: string;
  readonly subresource?: string;
}

export interface AuditResponseStatus {
  readonly metadata: Record<string, never>;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly details?: unknown;
  readonly code: number;
}

/** A user as audit events show it (kube's `authentication/v1.UserInfo`: empty fields left out). */
export function auditUser(u: UserInfo): AuditUser {
  return {
    username: u.name,
    ...(u.uid ? { uid: u.uid } : {}),
    ...(u.groups.length > 0 ? { groups: [...u.groups] } : {}),
    ...(u.extra && Object.keys(u.extra).length > 0 ? { extra: u.extra } : {}),
  };
}

/**
 * The levels that record bodies: `Request` records the request object, `RequestResponse` the
 * response object too.
 */
export function recordsRequest(level: AuditLevel): boolean {
  return level === 'Request' || level === 'RequestResponse';
}

/**
 * A body as audit events record it: the decoded JSON object, without `metadata.managedFields`
 * (also inside list items) when the policy omits them; undefined for bodies that are not JSON.
 */
export function auditBody(bytes: Buffer | string | undefined, omitManagedFields: boolean): unknown {
  if (bytes === undefined || bytes.length === 0) return undefined;
  let obj: unknown;
  try {
    obj = JSON.parse(typeof bytes === 'string' ? bytes : bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (omitManagedFields) stripManagedFields(obj);
  return obj;
}

function stripManagedFields(obj: unknown): void {
  if (!obj || typeof obj !== 'object') return;
  const o = obj as { metadata?: { managedFields?: unknown }; items?: unknown };
  if (o.metadata && typeof o.metadata === 'object') delete o.metadata.managedFields;
  if (Array.isArray(o.items)) for (const item of o.items) stripManagedFields(item);
}
