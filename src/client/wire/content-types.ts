import {
  CBOR_MEDIA_TYPE,
  JSON_MEDIA_TYPE,
  KUBERNETES_PROTOBUF,
  MediaTypeParseError,
  mediaTypeEssence,
  parseContentType,
  YAML_MEDIA_TYPE,
} from '../../encoding/index.js';

/** The wire formats request bodies are written in. */
export type WireFormat = 'json' | 'protobuf' | 'cbor';

/** What requests of one resource send and ask for. */
export interface ContentTypes {
  /** `Content-Type` of object bodies (create, update). Patches keep their own patch types. */
  readonly contentType: string;
  readonly bodyFormat: WireFormat;
  /** The `Accept` header of every request of the resource (watches included). */
  readonly accept: string;
}

/**
 * A client's content types: one pair for kinds with a Protobuf form (built-in kinds), one for
 * kinds without (custom resources), which get JSON where Protobuf was configured, as client-go's
 * dynamic client does.
 */
export interface ClientContentTypes {
  readonly withProtobuf: ContentTypes;
  readonly withoutProtobuf: ContentTypes;
}

/** ClientConnectionConfiguration's content type fields. */
export interface ContentTypeSettings {
  /** `contentType`: the media type of request bodies. Default `application/json`. */
  readonly contentType?: string;
  /**
   * `acceptContentTypes`: the `Accept` header, comma-separated, in order of preference. Default:
   * `<contentType>, *\/*` when `contentType` is set (client-go), else `application/json`.
   */
  readonly acceptContentTypes?: string;
}

/** Content type settings the client cannot speak; `problems` lists every one, with its field. */
export class ContentTypeConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid client content types: ${problems.join('; ')}`);
    this.name = 'ContentTypeConfigError';
  }
}

const WILDCARDS = new Set(['*/*', 'application/*']);

/**
 * The content types of a client, from ClientConnectionConfiguration's `contentType` and
 * `acceptContentTypes`. Bodies can be JSON, Protobuf (`application/vnd.kubernetes.protobuf` or
 * the profile's own type, `protobufMediaType`) or CBOR; the `Accept` list may also name YAML
 * and wildcards (the server answers the first it can serve). Throws
 * {@link ContentTypeConfigError} listing every unusable entry.
 */
export function resolveContentTypes(settings: ContentTypeSettings, protobufMediaType: string): ClientContentTypes {
  const problems: string[] = [];
  const protobufTypes = new Set([KUBERNETES_PROTOBUF, protobufMediaType]);
  const formatOf = (essence: string): WireFormat | undefined =>
    essence === JSON_MEDIA_TYPE
      ? 'json'
      : protobufTypes.has(essence)
        ? 'protobuf'
        : essence === CBOR_MEDIA_TYPE
          ? 'cbor'
          : undefined;
  const supportedBodies = [JSON_MEDIA_TYPE, ...protobufTypes, CBOR_MEDIA_TYPE];

  const contentType = (settings.contentType ?? '').trim();
  let bodyFormat: WireFormat = 'json';
  if (contentType) {
    const essence = parsedEssence(contentType, 'contentType', problems);
    const format = essence === undefined ? undefined : formatOf(essence);
    if (essence !== undefined && !format) {
      problems.push(`contentType: unsupported media type "${contentType}"; supported: ${supportedBodies.join(', ')}`);
    }
    bodyFormat = format ?? 'json';
  }

  const listed = (settings.acceptContentTypes ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const accepted = listed.map((entry, i) => {
    const essence = parsedEssence(entry, `acceptContentTypes[${i}]`, problems);
    if (essence !== undefined && !formatOf(essence) && essence !== YAML_MEDIA_TYPE && !WILDCARDS.has(essence)) {
      problems.push(
        `acceptContentTypes[${i}]: unsupported media type "${entry}"; supported: ${[...supportedBodies, YAML_MEDIA_TYPE, '*/*'].join(', ')}`,
      );
    }
    return { entry, protobuf: essence !== undefined && protobufTypes.has(essence) };
  });
  if (problems.length > 0) throw new ContentTypeConfigError(problems);

  const bodyType = contentType || JSON_MEDIA_TYPE;
  const accept =
    accepted.length > 0
      ? accepted.map((a) => a.entry).join(',')
      : contentType
        ? `${contentType}, */*`
        : JSON_MEDIA_TYPE;
  const plainAccepted = accepted.length > 0 ? accepted.filter((a) => !a.protobuf).map((a) => a.entry) : [];
  const plainAccept =
    accepted.length > 0
      ? plainAccepted.join(',') || JSON_MEDIA_TYPE
      : bodyFormat === 'protobuf'
        ? `${JSON_MEDIA_TYPE}, */*`
        : accept;
  return {
    withProtobuf: { contentType: bodyType, bodyFormat, accept },
    withoutProtobuf:
      bodyFormat === 'protobuf'
        ? { contentType: JSON_MEDIA_TYPE, bodyFormat: 'json', accept: plainAccept }
        : { contentType: bodyType, bodyFormat, accept: plainAccept },
  };
}

function parsedEssence(value: string, field: string, problems: string[]): string | undefined {
  try {
    parseContentType(value);
    return mediaTypeEssence(value);
  } catch (e) {
    if (!(e instanceof MediaTypeParseError)) throw e;
    problems.push(`${field}: invalid media type "${value}": ${e.message}`);
    return undefined;
  }
}
