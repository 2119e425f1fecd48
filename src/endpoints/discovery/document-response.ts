import { encodeYaml, preferredMediaType } from '../../encoding/index.js';
import type { ApiRequest, BodyResponse, ResponseHeaders } from '../handler.js';

const OFFERED = ['application/json', 'application/yaml'];

/**
 * The media type of a discovery document or `/version`: the first of JSON and YAML the Accept
 * clauses admit. These documents are served in JSON whatever else Accept lists: no 406 here.
 */
function documentMediaType(req: ApiRequest): string {
  return preferredMediaType(req.headers.accept, OFFERED) ?? 'application/json';
}

/** A discovery document (or `/version`) in JSON or YAML, indented for `?pretty` and curl. */
export function documentResponse(
  req: ApiRequest,
  status: number,
  doc: unknown,
  headers: ResponseHeaders = {},
): BodyResponse {
  const media = documentMediaType(req);
  const body =
    media === 'application/yaml'
      ? encodeYaml(doc)
      : isPretty(req)
        ? `${JSON.stringify(doc, null, 2)}\n`
        : JSON.stringify(doc);
  return { kind: 'body', status, headers: { 'content-type': media, ...headers }, body };
}

function isPretty(req: ApiRequest): boolean {
  const p = req.query.get('pretty');
  if (p !== null) return p === '' || p === 'true' || p === '1';
  return (req.headers['user-agent'] ?? '').startsWith('curl');
}
