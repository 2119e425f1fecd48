import { parseAllDocuments } from 'yaml';
import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ResourceDefinition } from '../../apis/resource-definition.js';
import {
  decodeObject,
  isProtobufMediaType,
  PROTOBUF_MEDIA_TYPES,
  ProtobufDecodeError,
} from '../../encoding/protobuf/index.js';
import type { ApiRequest } from '../handler.js';

/** kube-apiserver's limit on request bodies. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

const SUPPORTED = ['application/json', 'application/yaml'];
const SUPPORTED_WITH_PROTOBUF = [...SUPPORTED, ...PROTOBUF_MEDIA_TYPES];

/**
 * Reads and decodes a request body into a plain object: JSON, YAML, or (for a kind with a
 * schema, given as `def`) Protobuf. Malformed input is a 400 naming the problem; an
 * unsupported content type is a 415; over 3 MiB is a 413.
 */
export async function decodeObjectBody(req: ApiRequest, def?: ResourceDefinition): Promise<Record<string, unknown>> {
  const media = mediaTypeOf(req);
  if (def && isProtobufMediaType(media)) {
    const raw = await req.readBody(MAX_REQUEST_BODY_BYTES);
    try {
      return decodeObject(def.schema, raw, {
        apiVersion: def.group ? `${def.group}/${def.version}` : def.version,
        kind: def.kind,
      }) as Record<string, unknown>;
    } catch (e) {
      if (e instanceof ProtobufDecodeError) {
        throw new StatusError(400, 'BadRequest', `error decoding Protobuf body: ${e.message}`, undefined, { cause: e });
      }
      throw e;
    }
  }
  if (media !== '' && !SUPPORTED.includes(media)) {
    throw apiErrors.unsupportedMediaType(media, def ? SUPPORTED_WITH_PROTOBUF : SUPPORTED);
  }
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
    throw apiErrors.badRequest(
      `the request body must be an object, not ${Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
  return value as Record<string, unknown>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new StatusError(400, 'BadRequest', `error decoding JSON body: ${(e as Error).message}`, undefined, {
      cause: e,
    });
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
