import { stringify as yamlStringify } from 'yaml';
import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiRequest, BodyResponse, ResponseHeaders } from '../handler.js';

export type ResponseMediaType = 'application/json' | 'application/yaml';

/**
 * The response encoding the client accepts: JSON unless YAML is preferred. A full content
 * negotiation (q-values, Protobuf, Table) replaces this.
 */
export function responseMediaType(req: ApiRequest): ResponseMediaType {
  const accept = req.headers.accept ?? '';
  const yaml = accept.indexOf('application/yaml');
  if (yaml < 0) return 'application/json';
  const json = accept.indexOf('application/json');
  return json < 0 || yaml < json ? 'application/yaml' : 'application/json';
}

export function objectResponse(
  req: ApiRequest,
  status: number,
  obj: unknown,
  headers: ResponseHeaders = {},
): BodyResponse {
  const media = responseMediaType(req);
  const pretty = isPretty(req);
  const body =
    media === 'application/yaml'
      ? yamlStringify(obj)
      : pretty
        ? `${JSON.stringify(obj, null, 2)}\n`
        : JSON.stringify(obj);
  return { kind: 'body', status, headers: { 'content-type': media, ...headers }, body };
}

function isPretty(req: ApiRequest): boolean {
  const p = req.query.get('pretty');
  if (p !== null) return p === '' || p === 'true' || p === '1';
  return (req.headers['user-agent'] ?? '').startsWith('curl');
}

/** The `Status` response for any thrown error; unknown errors become a 500. */
export function errorResponse(req: ApiRequest, err: unknown): BodyResponse {
  const se = err instanceof StatusError ? err : apiErrors.internal(err);
  return objectResponse(req, se.code, se.toStatus(), se.headers);
}
