import { parseAllDocuments } from 'yaml';
import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiRequest } from '../handler.js';

/** kube-apiserver's limit on request bodies. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

const SUPPORTED = ['application/json', 'application/yaml'];

/**
 * Reads and decodes a JSON or YAML request body into a plain object. Malformed input is a
 * 400 naming the problem; an unsupported content type is a 415; over 3 MiB is a 413.
 */
export async function decodeObjectBody(req: ApiRequest): Promise<Record<string, unknown>> {
  const media = mediaTypeOf(req);
  if (media !== '' && !SUPPORTED.includes(media)) throw apiErrors.unsupportedMediaType(media, SUPPORTED);
  return decodeObjectBytes(await req.readBody(MAX_REQUEST_BODY_BYTES), media);
}

/** The request's media type without parameters, lower-cased; JSON when unset. */
export function mediaTypeOf(req: ApiRequest): string {
  return (req.headers['content-type'] ?? 'application/json').split(';')[0].trim().toLowerCase();
}

/** Decodes an already-read JSON or YAML body. */
export function decodeObjectBytes(raw: Buffer, media: string): Record<string, unknown> {
  if (media !== '' && !SUPPORTED.includes(media)) throw apiErrors.unsupportedMediaType(media, SUPPORTED);
  const text = raw.toString('utf8');
  if (text.trim() === '') throw apiErrors.badRequest('the request body is empty: an object is required');
  const value = media === 'application/yaml' ? parseYaml(text) : parseJson(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw apiErrors.badRequest(`the request body must be an object, not ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value as Record<string, unknown>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new StatusError(400, 'BadRequest', `error decoding JSON body: ${(e as Error).message}`, undefined, { cause: e });
  }
}

function parseYaml(text: string): unknown {
  const docs = parseAllDocuments(text, { uniqueKeys: false });
  if (!Array.isArray(docs)) throw apiErrors.badRequest('error decoding YAML body: no document');
  const nonEmpty = docs.filter((d) => d.contents !== null);
  if (nonEmpty.length !== 1) {
    throw apiErrors.badRequest(`error decoding YAML body: expected one document, found ${nonEmpty.length}`);
  }
  const doc = nonEmpty[0];
  if (doc.errors.length > 0) {
    throw apiErrors.badRequest(`error decoding YAML body: ${doc.errors[0].message}`);
  }
  return doc.toJS({ maxAliasCount: 100 });
}
