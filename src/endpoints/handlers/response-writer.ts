import { objectMetaField } from '../../apis/meta/object-meta-schema.js';
import { apiErrors, type Status, StatusError } from '../../apis/meta/status.js';
import { apiVersionField, kindField } from '../../apis/meta/type-meta-fields.js';
import type { ApiObject } from '../../apis/object.js';
import { apiVersionOf, type ResourceDefinition } from '../../apis/resource-definition.js';
import type { Schema } from '../../apis/schema/schema.js';
import { buildTable, toPartialObjectMetadata, toPartialObjectMetadataList } from '../../apis/table/index.js';
import {
  type EncodingCache,
  encodeCbor,
  encodeJson,
  encodeJsonCompact,
  encodeJsonList,
  encodeJsonListChunks,
  encodeYaml,
  gzipBody,
  LIST_CHUNK_BYTES,
  type NegotiatedMedia,
  NotAcceptableError,
  negotiateErrorOutput,
  negotiateOutput,
  shouldGzip,
} from '../../encoding/index.js';
import {
  encodeItemMessage,
  encodeList,
  encodeListOfMessages,
  encodeObject,
  encodeStatus,
  envelopeMessage,
} from '../../encoding/protobuf/index.js';
import type { EncodedObject, ObjectList } from '../../registry/types.js';
import {
  type ApiRequest,
  type BodyResponse,
  bodyBytes,
  bodySize,
  isChunkedBody,
  type ResponseHeaders,
} from '../handler.js';
import { type IncludeObject, tableIncludeObject } from './table-options.js';

/** What response encoding may use, fixed at start-up from the feature gates. */
export interface ResponseConfig {
  /** Gate `CBORServingAndStorage`. */
  readonly cborEnabled: boolean;
  /** Gate `APIResponseCompression`. */
  readonly compression: boolean;
  readonly now: () => Date;
  /**
   * Serialize once per media type: objects handed out by the watch cache are shared by every
   * reader, so their encoding is remembered (keyed by object identity) and reused.
   */
  readonly encodings?: EncodingCache;
  /** `--min-request-timeout`: watches without timeoutSeconds last a random [this, 2×this) seconds. */
  readonly minRequestTimeoutSeconds?: number;
  /**
   * Gate `WatchList` (streaming lists; beta and on by default in kube 1.32): when false, a watch
   * that sets `sendInitialEvents` is rejected as kube rejects it. Default true.
   */
  readonly watchList?: boolean;
}

// PartialObjectMetadata in Protobuf: the object's metadata as field 1.
const PARTIAL_METADATA_SCHEMA: Schema = {
  type: 'object',
  properties: { apiVersion: apiVersionField, kind: kindField, metadata: objectMetaField() },
};

/** The media a response is written in, per the request's Accept header (406 when none fits). */
export function negotiate(
  req: ApiRequest,
  cfg: ResponseConfig,
  def: ResourceDefinition | undefined,
  opts?: { status?: boolean },
): NegotiatedMedia {
  try {
    return negotiateOutput(req.headers.accept, {
      cborEnabled: cfg.cborEnabled,
      // Status objects have a Protobuf form too; other schema-less values do not.
      encodings:
        (def && def.protobuf !== false) || opts?.status
          ? undefined
          : cfg.cborEnabled
            ? ['json', 'yaml', 'cbor']
            : ['json', 'yaml'],
      table: def !== undefined,
      partialObjectMetadata: def !== undefined,
      metaGroup: req.domain.metaGroup,
      protobufMediaType: req.domain.protobufMediaType,
      prettyParam: req.query.get('pretty') ?? undefined,
      userAgent: req.headers['user-agent'],
    });
  } catch (e) {
    if (e instanceof NotAcceptableError) throw e.toStatusError();
    throw e;
  }
}

/** The name of a cached object's Protobuf form: its message as a list item carries it. */
const PROTOBUF_ITEM = 'protobuf:item';

/** Cache key of an object's compact JSON (with the trailing newline of a response body). */
const OBJECT_JSON = 'object:application/json';

function isPlainJson(media: NegotiatedMedia): boolean {
  return media.encoding === 'json' && !media.pretty && media.target === undefined;
}

/**
 * A GET with a resourceVersion is served from the watch cache (its objects are shared); one
 * without reads the store and gets an object of its own, which is not worth remembering.
 */
function readFromWatchCache(req: ApiRequest): boolean {
  return req.method === 'GET' && (req.query.get('resourceVersion') ?? '') !== '';
}

/** `bytes` as a Buffer without copying (a view of the same memory). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function serialize(media: NegotiatedMedia, value: unknown, protobuf: () => Uint8Array): Buffer | string {
  switch (media.encoding) {
    case 'json':
      return encodeJson(value, { pretty: media.pretty });
    case 'yaml':
      return encodeYaml(value);
    case 'cbor':
      return encodeCbor(value);
    case 'protobuf':
      return Buffer.from(protobuf());
  }
}

/** No headers of the handler's own (never modified: `finish` copies them). */
const NO_HEADERS: ResponseHeaders = Object.freeze({}) as ResponseHeaders;

function finish(
  req: ApiRequest,
  cfg: ResponseConfig,
  status: number,
  media: NegotiatedMedia,
  body: BodyResponse['body'],
  headers: ResponseHeaders,
): BodyResponse {
  // Copied name by name: a spread into a literal costs more, and most answers add none.
  const out: ResponseHeaders = { 'content-type': media.contentType };
  for (const name in headers) out[name] = headers[name];
  const length = bodySize(body);
  if (shouldGzip(req.headers['accept-encoding'], length, cfg.compression)) {
    const bytes = bodyBytes(body);
    return {
      kind: 'body',
      status,
      headers: { ...out, 'content-encoding': 'gzip', vary: 'Accept-Encoding' },
      body: gzipBody(typeof bytes === 'string' ? Buffer.from(bytes) : bytes),
    };
  }
  // A body made in chunks goes out in chunks only when it is larger than one (a large list).
  const sent = isChunkedBody(body) && length <= LIST_CHUNK_BYTES ? bodyBytes(body) : body;
  return { kind: 'body', status, headers: out, body: sent };
}

function includeObject(req: ApiRequest): IncludeObject | undefined {
  return tableIncludeObject(req.query);
}

/**
 * One object read from the watch cache: in plain JSON its bytes are copied; any other form
 * decodes it (see {@link writeObject}).
 */
export function writeEncodedObject(
  req: ApiRequest,
  cfg: ResponseConfig,
  def: ResourceDefinition,
  encoded: EncodedObject,
): BodyResponse {
  const media = negotiate(req, cfg, def);
  if (isPlainJson(media)) {
    return finish(req, cfg, 200, media, asBuffer(encoded.json('\n')), NO_HEADERS);
  }
  if (media.encoding === 'protobuf' && !media.target) {
    const message = encoded.form(PROTOBUF_ITEM, (obj) => encodeItemMessage(def.schema, obj));
    const typeMeta = { apiVersion: apiVersionOf(def), kind: def.kind };
    return finish(req, cfg, 200, media, asBuffer(envelopeMessage(typeMeta, message)), {});
  }
  return writeObject(req, cfg, def, 200, encoded.object);
}

/** One object, converted to a Table or PartialObjectMetadata when the client asked for it. */
export function writeObject(
  req: ApiRequest,
  cfg: ResponseConfig,
  def: ResourceDefinition,
  status: number,
  obj: ApiObject,
  headers: ResponseHeaders = {},
): BodyResponse {
  const media = negotiate(req, cfg, def);
  let value: unknown = obj;
  let schema = def.schema;
  if (isPlainJson(media) && readFromWatchCache(req) && cfg.encodings) {
    // Objects read from the watch cache are shared: encode each once for every GET (and list).
    const body = cfg.encodings.encode(obj, OBJECT_JSON, () => Buffer.from(encodeJson(obj)));
    return finish(req, cfg, status, media, asBuffer(body), headers);
  }
  if (media.target?.as === 'Table') {
    value = buildTable(def, obj, {
      now: cfg.now(),
      includeObject: includeObject(req),
      apiVersion: targetVersion(media),
    });
  } else if (media.target) {
    value = toPartialObjectMetadata(obj, targetVersion(media));
    schema = PARTIAL_METADATA_SCHEMA;
  }
  return finish(
    req,
    cfg,
    status,
    media,
    serialize(media, value, () => encodeObject(schema, value as ApiObject)),
    headers,
  );
}

function targetVersion(media: NegotiatedMedia): string {
  return `${media.target!.group}/${media.target!.version}`;
}

/** A collection (`<Kind>List`), or its Table / PartialObjectMetadataList form. */
export function writeList(
  req: ApiRequest,
  cfg: ResponseConfig,
  def: ResourceDefinition,
  list: ObjectList,
): BodyResponse {
  const media = negotiate(req, cfg, def);
  const listMeta = {
    resourceVersion: list.resourceVersion,
    ...(list.continue ? { continue: list.continue } : {}),
    ...(list.remainingItemCount !== undefined ? { remainingItemCount: list.remainingItemCount } : {}),
  };
  if (media.target?.as === 'Table') {
    const table = buildTable(def, list.items, {
      now: cfg.now(),
      includeObject: includeObject(req),
      listMeta,
      apiVersion: targetVersion(media),
    });
    return finish(
      req,
      cfg,
      200,
      media,
      serialize(media, table, () => new Uint8Array()),
      {},
    );
  }
  if (media.target) {
    const partial = toPartialObjectMetadataList(list.items, listMeta, targetVersion(media));
    return finish(
      req,
      cfg,
      200,
      media,
      serialize(media, partial, () => encodeList(PARTIAL_METADATA_SCHEMA, partial as never)),
      {},
    );
  }
  const head = { kind: def.listKind, apiVersion: apiVersionOf(def), metadata: listMeta };
  if (isPlainJson(media) && list.encodedItems) {
    // Read from the watch cache: each item's stored bytes, copied.
    const encoded = list.encodedItems;
    const body = encodeJsonListChunks(head, {
      count: encoded.length,
      size: (i) => (encoded[i] as EncodedObject).jsonSize(),
      write: (i, out, at) => (encoded[i] as EncodedObject).writeJson(out, at),
    });
    return finish(req, cfg, 200, media, body, {});
  }
  if (media.encoding === 'protobuf' && !media.target && list.encodedItems) {
    // Each item's message encoded once and kept with the cached object; the list copies them.
    const messages = list.encodedItems.map((e) => e.form(PROTOBUF_ITEM, (obj) => encodeItemMessage(def.schema, obj)));
    return finish(req, cfg, 200, media, asBuffer(encodeListOfMessages(def.schema, head, messages)), {});
  }
  if (isPlainJson(media)) {
    // Item by item into one buffer; an item a GET encoded already is reused, nothing is cached.
    const cache = cfg.encodings;
    const itemBytes = (item: unknown): string | Uint8Array => {
      const bytes = cache?.cached(item as object, OBJECT_JSON);
      return bytes ? bytes.subarray(0, bytes.length - 1) : encodeJsonCompact(item);
    };
    return finish(req, cfg, 200, media, encodeJsonList(head, list.items, itemBytes), {});
  }
  const body = { ...head, items: list.items };
  return finish(
    req,
    cfg,
    200,
    media,
    serialize(media, body, () => encodeList(def.schema, body)),
    {},
  );
}

/**
 * A `Status` answer (of a delete, or of a create that answers with one: bindings, evictions), in
 * the client's encoding, with `httpStatus` (default: the Status's own code).
 */
export function writeSuccessStatus(
  req: ApiRequest,
  cfg: ResponseConfig,
  status: Status,
  httpStatus: number = status.code,
): BodyResponse {
  const media = negotiate(req, cfg, undefined, { status: true });
  return finish(
    req,
    cfg,
    httpStatus,
    media,
    serialize(media, status, () => encodeStatus(status)),
    {},
  );
}

/**
 * The answer of a create (201 Created): the object, or the `Status` some creates answer with
 * (bindings, evictions), whose `code` is 201 unless it carries its own (kube writes HTTP 201 and
 * leaves a failure code in the body for the client to read). `json`, the object's compact JSON
 * made from the bytes written (see `CreatedObject`), is the body of a plain JSON answer.
 */
export function writeCreated(
  req: ApiRequest,
  cfg: ResponseConfig,
  def: ResourceDefinition,
  obj: ApiObject,
  json?: Uint8Array,
): BodyResponse {
  if (obj.kind === 'Status' && obj.apiVersion === 'v1') {
    const status = { ...(obj as unknown as Status) };
    if (!status.code) status.code = 201;
    return writeSuccessStatus(req, cfg, status, 201);
  }
  if (json !== undefined) {
    // The object's compact JSON made from the bytes written (as a read serves them): no encoding.
    const media = negotiate(req, cfg, def);
    if (isPlainJson(media)) return finish(req, cfg, 201, media, asBuffer(json), {});
  }
  return writeObject(req, cfg, def, 201, obj);
}

/** Any value without a schema (discovery documents, Status on success). */
export function writeValue(
  req: ApiRequest,
  cfg: ResponseConfig,
  status: number,
  value: unknown,
  headers: ResponseHeaders = {},
): BodyResponse {
  const media = negotiate(req, cfg, undefined);
  return finish(
    req,
    cfg,
    status,
    media,
    serialize(media, value, () => new Uint8Array()),
    headers,
  );
}

/**
 * The `Status` of an error, in the client's encoding when possible; when nothing in Accept
 * fits, as indented JSON with the error's own status code (kube does not answer 406 there).
 */
export function writeError(req: ApiRequest, cfg: ResponseConfig, err: unknown): BodyResponse {
  const se = err instanceof StatusError ? err : apiErrors.internal(err);
  const status = se.toStatus();
  const media = negotiateErrorOutput(req.headers.accept, {
    cborEnabled: cfg.cborEnabled,
    protobufMediaType: req.domain.protobufMediaType,
    prettyParam: req.query.get('pretty') ?? undefined,
    userAgent: req.headers['user-agent'],
  });
  const body = serialize(media, status, () => encodeStatus(status));
  return { kind: 'body', status: se.code, headers: { 'content-type': media.contentType, ...se.headers }, body };
}

/** Response encoding for errors raised outside the resource handlers (filters, routing). */
const OUTSIDE_RESOURCES: ResponseConfig = { cborEnabled: false, compression: false, now: () => new Date() };

/** The `Status` response for an error raised before a resource handler took the request. */
export function errorResponse(req: ApiRequest, err: unknown): BodyResponse {
  return writeError(req, OUTSIDE_RESOURCES, err);
}
