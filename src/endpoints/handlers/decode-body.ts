import { apiErrors, StatusError } from '../../apis/meta/status.js';
import { apiVersionOf, type ResourceDefinition } from '../../apis/resource-definition.js';
import { goDecodeError } from '../../apis/schema/go-type-decode.js';
import { pruneUnknownFields } from '../../apis/schema/prune.js';
import type { Schema } from '../../apis/schema/schema.js';
import { type TypedBodyWalk, walkTypedBody } from '../../apis/schema/typed-body-walk.js';
import {
  CborDecodeError,
  cannotBeHandledMessage,
  countTextKeys,
  decodeCbor,
  decodeJsonStrict,
  decodeUtf8Lenient,
  decodeYamlStrict,
  type FieldValidationDirective,
  fieldValidation,
  InvalidFieldValidationError,
  JsonSyntaxError,
  mediaTypeEssence,
  negotiateRequestMedia,
  type OptionsKind,
  parseFieldValidation,
  parseJsonText,
  StrictDecodingError,
  type strictDecodingErrors,
  TEXT_WITHIN_NESTING_LIMIT,
  UnsupportedMediaTypeError,
  unrecognizedObjectMessage,
  YamlSyntaxError,
} from '../../encoding/index.js';
import { decodeObject, ProtobufDecodeError } from '../../encoding/protobuf/index.js';
import type { ApiRequest } from '../handler.js';

/** kube-apiserver's limit on request bodies. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** The request's media type without parameters, lower-cased; JSON when unset. */
export function mediaTypeOf(req: ApiRequest): string {
  return mediaTypeEssence(req.headers['content-type'] ?? 'application/json');
}

/** The `fieldValidation` directive of a write; an invalid value is kube's 422. */
export function fieldValidationOf(req: ApiRequest, kind: OptionsKind): FieldValidationDirective {
  try {
    return parseFieldValidation(req.query.get('fieldValidation'));
  } catch (e) {
    if (e instanceof InvalidFieldValidationError) throw e.toStatusError(kind, req.domain.metaGroup);
    throw e;
  }
}

export interface DecodedBody {
  readonly obj: Record<string, unknown>;
  /** `Warning` texts for unknown and duplicate fields (fieldValidation=Warn). */
  readonly warnings: string[];
  /**
   * The object is plain JSON that nothing else holds, equal in every respect to a deep copy of
   * it: a create may keep it instead of a copy (`CreateOptions.inputIsOwned`).
   */
  readonly ownable: boolean;
  /**
   * The schema whose defaults the decode applied (`applySchemaDefaults`), or undefined: the
   * create need not apply them again (`CreateOptions.inputDefaultedBy`).
   */
  readonly defaultedBy: Schema | undefined;
}

/**
 * Reads and decodes an object body (JSON, YAML, Protobuf, or CBOR when enabled), drops the
 * fields the kind's schema does not know, and applies the field validation directive:
 * Ignore drops silently, Warn reports one warning per field, Strict answers 400 listing them.
 * Malformed input is a 400 naming the problem, an unsupported type 415, over 3 MiB 413.
 */
export async function decodeObjectBody(
  req: ApiRequest,
  def: ResourceDefinition,
  o: {
    directive: FieldValidationDirective;
    cborEnabled: boolean;
    /** Apply the schema's defaults where the one walk decides the body (see `walkTypedBody`). */
    applySchemaDefaults?: boolean;
    /** With them, write every quantity in canonical form (see `walkTypedBody`). */
    canonicalQuantities?: boolean;
  },
): Promise<DecodedBody> {
  let media: string;
  try {
    media = negotiateRequestMedia(req.headers['content-type'], {
      cborEnabled: o.cborEnabled,
      protobufMediaType: req.domain.protobufMediaType,
    }).mediaType;
  } catch (e) {
    if (e instanceof UnsupportedMediaTypeError) throw e.toStatusError();
    throw e;
  }
  // Kinds without a Protobuf form (custom resources) accept every other media type.
  if (def.protobuf === false && media.includes('protobuf')) {
    const offered = ['application/json', 'application/yaml', ...(o.cborEnabled ? ['application/cbor'] : [])];
    throw apiErrors.unsupportedMediaType(req.headers['content-type'] ?? '', offered);
  }
  const raw = await req.readBody(MAX_REQUEST_BODY_BYTES);
  const version = apiVersionOf(def);
  let value: unknown;
  let duplicates: Parameters<typeof strictDecodingErrors>[0]['duplicates'] = [];
  let yamlDuplicates: readonly string[] = [];
  let jsonText: string | undefined;
  let walked: TypedBodyWalk | undefined;
  try {
    if (media.includes('protobuf')) {
      value = decodeObject(def.schema, raw, { apiVersion: version, kind: def.kind });
    } else if (media === 'application/cbor') {
      value = decodeCbor(raw);
    } else if (media === 'application/yaml') {
      const r = decodeYamlStrict(decodeUtf8Lenient(raw));
      value = r.value;
      yamlDuplicates = r.duplicates;
    } else {
      jsonText = decodeUtf8Lenient(raw);
      const usual = usualTypedJsonBody(def, jsonText, o.directive, {
        defaults: !!o.applySchemaDefaults,
        quantities: !!o.canonicalQuantities,
      });
      if (usual) {
        value = usual.value;
        walked = usual.walked;
      } else {
        const r = decodeJsonStrict(jsonText, { detectDuplicates: o.directive !== 'Ignore' });
        value = r.value;
        duplicates = r.duplicates;
      }
    }
  } catch (e) {
    if (e instanceof JsonSyntaxError || e instanceof YamlSyntaxError || e instanceof CborDecodeError) {
      throw new StatusError(
        400,
        'BadRequest',
        unrecognizedObjectMessage({ targetKind: def.kind, cause: e.message, body: raw }),
        undefined,
        {
          cause: e,
        },
      );
    }
    if (e instanceof ProtobufDecodeError) {
      throw new StatusError(400, 'BadRequest', `error decoding Protobuf body: ${e.message}`, undefined, { cause: e });
    }
    throw e;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw apiErrors.badRequest(
      unrecognizedObjectMessage({
        targetKind: def.kind,
        cause: `json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
        body: raw,
      }),
    );
  }
  const obj = value as Record<string, unknown>;
  // A body the one walk decided has been checked as Go decodes it and pruned already.
  if (!walked && (jsonText !== undefined || media === 'application/yaml')) rejectUndecodableIntegers(def, obj);
  const unknown = walked ? walked.removed : pruneUnknownFields(def.schema, obj);
  try {
    const { warnings } = fieldValidation(o.directive, {
      unknown,
      duplicates,
      yamlDuplicates,
      // Kinds without a Go type (custom resources) decode unstructured, then are pruned.
      kind: def.schema['x-orch-type-name'] ? 'typed' : 'unstructured',
      jsonText,
    });
    return {
      obj,
      warnings,
      ownable: jsonText !== undefined,
      defaultedBy: walked?.defaulted ? def.schema : undefined,
    };
  } catch (e) {
    if (e instanceof StrictDecodingError) {
      throw new StatusError(
        400,
        'BadRequest',
        cannotBeHandledMessage({ kind: def.kind, version: def.version, targetKind: def.kind, cause: e.message }),
        undefined,
        { cause: e },
      );
    }
    throw e;
  }
}

/**
 * A JSON body of a compiled-in kind decoded in one walk (`walkTypedBody`: Go's checks, pruning and
 * the key count at once), when it is a usual one: a JSON object Go decodes, without a repeated key
 * (the text has as many keys as the value) and short enough that it cannot nest deeper than Go
 * allows. Undefined for any other: `decodeJsonStrict` and the separate walks then decide, from the
 * text again, and report exactly what is wrong.
 */
function usualTypedJsonBody(
  def: ResourceDefinition,
  text: string,
  directive: FieldValidationDirective,
  normalize: { readonly defaults: boolean; readonly quantities: boolean },
): { value: Record<string, unknown>; walked: TypedBodyWalk } | undefined {
  if (!def.schema['x-orch-type-name'] || text.length > TEXT_WITHIN_NESTING_LIMIT) return undefined;
  const value = parseJsonText(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const obj = value as Record<string, unknown>;
  const walked = walkTypedBody(def.schema, obj, normalize);
  if (!walked) return undefined;
  // With `Ignore`, repeated keys are not reported: the count is not compared.
  if (directive !== 'Ignore' && countTextKeys(text) !== walked.keys) return undefined;
  return { value: obj, walked };
}

/**
 * kube decodes a JSON or YAML body of a compiled-in kind (a schema named by
 * `x-orch-type-name`) into its Go struct, where a value of the wrong JSON kind for its field, or
 * an integer outside its field's int32/int64 range, is a 400 before any validation. Custom resources decode untyped; their schema
 * validation reports such values (422).
 */
function rejectUndecodableIntegers(def: ResourceDefinition, obj: Record<string, unknown>): void {
  if (!def.schema['x-orch-type-name']) return;
  const cause = goDecodeError(def.schema, obj);
  if (cause === undefined) return;
  throw apiErrors.badRequest(
    cannotBeHandledMessage({ kind: def.kind, version: def.version, targetKind: def.kind, cause }),
  );
}

/** Decodes an optional JSON or YAML body without a schema (DeleteOptions). */
export function decodeOptionsBody(raw: Buffer, media: string): Record<string, unknown> | undefined {
  if (raw.length === 0) return undefined;
  try {
    const value =
      media === 'application/yaml'
        ? decodeYamlStrict(decodeUtf8Lenient(raw)).value
        : decodeJsonStrict(decodeUtf8Lenient(raw)).value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw apiErrors.badRequest('the request body must be a DeleteOptions object');
    }
    return value as Record<string, unknown>;
  } catch (e) {
    if (e instanceof JsonSyntaxError || e instanceof YamlSyntaxError) {
      throw new StatusError(400, 'BadRequest', `error decoding DeleteOptions: ${e.message}`, undefined, { cause: e });
    }
    throw e;
  }
}
