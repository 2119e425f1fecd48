import { randomUUID } from 'node:crypto';
import type { ApiResponse, Filter } from '../handler.js';

const AUDIT_ID_HEADER = 'audit-id';

/**
 * Gives every request an audit ID, the client's `Audit-ID` header when it sent one (as
 * kube-apiserver honours it), else a new UUID, and echoes it in the `Audit-Id` response header.
 * Outermost after panic recovery, so every answer carries it, errors included; the request's
 * `Warning` headers are added here too.
 */
export function auditId(): Filter {
  return (next) => async (req) => {
    const sent = req.headers[AUDIT_ID_HEADER];
    const id = typeof sent === 'string' && sent !== '' ? sent : randomUUID();
    req.auditId = id;
    return withRequestHeaders(await next(req), id, req.warnings.headerValues());
  };
}

function withRequestHeaders(res: ApiResponse, id: string, warnings: readonly string[]): ApiResponse {
  const headers: Record<string, string | string[]> = { ...res.headers, [AUDIT_ID_HEADER]: id };
  if (warnings.length > 0) {
    const earlier = headers.warning;
    headers.warning =
      earlier === undefined ? [...warnings] : [...(Array.isArray(earlier) ? earlier : [earlier]), ...warnings];
  }
  return { ...res, headers };
}
