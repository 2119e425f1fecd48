import { parse as parseYaml } from 'yaml';
import type { ApiDomain } from '../../apis/api-domain.js';
import { StatusError, type StatusReason } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { Schema } from '../../apis/schema/schema.js';
import {
  CBOR_MEDIA_TYPE,
  decodeCbor,
  encodeCbor,
  JSON_MEDIA_TYPE,
  KUBERNETES_PROTOBUF,
  mediaTypeEssence,
  YAML_MEDIA_TYPE,
} from '../../encoding/index.js';
import {
  decodeList,
  decodeObject,
  decodeStatus,
  encodeObject,
  hasProtobufPrefix,
  peekTypeMeta,
} from '../../encoding/protobuf/index.js';
import type { WireFormat } from './content-types.js';
import { kindKey, protobufKinds } from './protobuf-kinds.js';
import { CBOR_RESPONSE_LIMITS, type WatchEventDecoder, watchDecoderFor } from './watch-decoders.js';

/**
 * The client's one seam onto the server's codecs (`src/encoding/`): request bodies are written
 * and responses read with the very code the server serves them with, so there is no second
 * Protobuf or CBOR codec. Protobuf needs a kind's schema: those of the built-in kinds (and
 * their sub-resource kinds) of the client's API domain, the kinds the server serves in
 * Protobuf; custom resources have none.
 */

/** A response body the client cannot read (wrong Protobuf prefix, malformed data, unknown media type). */
export class ResponseDecodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ResponseDecodeError';
  }
}

const STATUS_KIND = 'Status';

/** `body` as UTF-8 text (a view of a Buffer, not a copy). */
function textOf(body: Uint8Array): string {
  return (Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)).toString('utf8');
}

/** The first bytes of `body`, in hex, for error messages (never the whole body). */
function firstBytes(body: Uint8Array): string {
  return Buffer.from(body.subarray(0, 8))
    .toString('hex')
    .replace(/(..)(?!$)/g, '$1 ');
}

/** Decoders and encoders of the wire formats, for one API domain. Immutable once built. */
export class WireCodecs {
  private schemas: Map<string, Schema> | undefined;
  private readonly protobufTypes: ReadonlySet<string>;

  constructor(private readonly domain: ApiDomain) {
    this.protobufTypes = new Set([KUBERNETES_PROTOBUF, domain.protobufMediaType]);
  }

  /** The Protobuf schemas of the built-in kinds, read from their definitions on first use. */
  private schemaTable(): Map<string, Schema> {
    this.schemas ??= protobufKinds(this.domain);
    return this.schemas;
  }

  /** True when objects of `apiVersion`/`kind` have a Protobuf form (a built-in kind). */
  hasProtobuf(apiVersion: string, kind: string): boolean {
    return this.schemaTable().has(kindKey(apiVersion, kind));
  }

  /** True when `contentType` names a Protobuf media type (kube's or the profile's). */
  isProtobuf(contentType: string | undefined): boolean {
    return contentType !== undefined && this.protobufTypes.has(mediaTypeEssence(contentType));
  }

  /**
   * `obj` as a request body in `format`: a string for JSON, bytes for Protobuf (the enveloped
   * document of its kind, which must be built in) and CBOR (self-described).
   */
  encode(format: WireFormat, obj: ApiObject): string | Uint8Array {
    switch (format) {
      case 'json':
        return JSON.stringify(obj);
      case 'cbor':
        return encodeCbor(obj);
      case 'protobuf': {
        const schema = this.schemaTable().get(kindKey(obj.apiVersion, obj.kind));
        if (!schema) throw new Error(`${obj.kind} (${obj.apiVersion}) has no Protobuf form`);
        return encodeObject(schema, obj);
      }
    }
  }

  /**
   * Decodes a response body by its `Content-Type` (JSON when absent): JSON, YAML, CBOR, or
   * Protobuf (an object, a list or a Status, by the envelope's type). Throws
   * {@link ResponseDecodeError} for a body it cannot read; a Protobuf body must start with
   * `k8s\0`.
   */
  decode(contentType: string | undefined, body: Uint8Array): unknown {
    const essence = contentType ? mediaTypeEssence(contentType) : JSON_MEDIA_TYPE;
    try {
      if (essence === JSON_MEDIA_TYPE) return JSON.parse(textOf(body));
      if (this.protobufTypes.has(essence)) return this.decodeProtobuf(body);
      if (essence === CBOR_MEDIA_TYPE) return decodeCbor(body, CBOR_RESPONSE_LIMITS);
      if (essence === YAML_MEDIA_TYPE) return parseYaml(textOf(body));
    } catch (e) {
      if (e instanceof ResponseDecodeError) throw e;
      throw new ResponseDecodeError(`invalid ${essence} in response: ${(e as Error).message}`, { cause: e });
    }
    throw new ResponseDecodeError(`the response's content type ${contentType} is not one the client can read`);
  }

  /**
   * An enveloped Protobuf document: a Status, an object of a built-in kind, or a list of one
   * (`<Kind>List`, whose items get their apiVersion and kind back).
   */
  decodeProtobuf(body: Uint8Array): ApiObject {
    if (!hasProtobufPrefix(body)) {
      throw new ResponseDecodeError(
        `the response is not Protobuf: it does not start with the prefix k8s\\x00 (${body.length === 0 ? 'empty body' : `first bytes ${firstBytes(body)}`})`,
      );
    }
    const { apiVersion, kind } = peekTypeMeta(body);
    if (kind === STATUS_KIND && apiVersion === 'v1') return decodeStatus(body) as unknown as ApiObject;
    const table = this.schemaTable();
    const schema = table.get(kindKey(apiVersion, kind));
    if (schema) return decodeObject(schema, body);
    const itemSchema = kind.endsWith('List') ? table.get(kindKey(apiVersion, kind.slice(0, -4))) : undefined;
    if (itemSchema) return decodeList(itemSchema, body) as unknown as ApiObject;
    throw new ResponseDecodeError(`no Protobuf schema for ${kind || '(no kind)'} (${apiVersion || 'no apiVersion'})`);
  }

  /**
   * A decoder of a watch response with `contentType`: JSON lines, Protobuf frames or a CBOR
   * sequence. Throws `WatchDecodeError` for any other content type.
   */
  watchDecoder(contentType: string | undefined): WatchEventDecoder {
    return watchDecoderFor(contentType, this);
  }

  /**
   * The `StatusError` of a failed response: its `Status` body in whatever format it came, else
   * the body's text (or a generic message). Never throws.
   */
  statusError(code: number, contentType: string | undefined, body: Uint8Array): StatusError {
    let decoded: unknown;
    try {
      decoded = this.decode(contentType, body);
    } catch {
      decoded = undefined;
    }
    const s = decoded as { kind?: unknown; reason?: StatusReason; message?: string; details?: never } | undefined;
    if (s && typeof s === 'object' && s.kind === STATUS_KIND) {
      return new StatusError(code, s.reason ?? '', s.message ?? '', s.details);
    }
    // A binary body that is no Status says nothing readable.
    const binary = this.isProtobuf(contentType) || (contentType && mediaTypeEssence(contentType) === CBOR_MEDIA_TYPE);
    const text = binary ? '' : textOf(body).trim();
    return new StatusError(code, '', text || `the server responded with status ${code}`);
  }
}
