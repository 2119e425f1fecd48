import { ORCH_DOMAIN } from '../apis/api-domain.js';
/**
 * Response content negotiation, step for step as kube-apiserver v1.32 does it
 * (`negotiation.NegotiateOutputMediaType` with a request scope's endpoint restrictions):
 * Accept clauses in goautoneg order, each tried against the serializers in order, the first
 * clause/serializer pair whose parameters the endpoint allows wins. There is no fallback: a
 * header that matches nothing is a 406, an empty header means JSON. Pure and synchronous.
 */

import { goParseBool } from '../util/go-strconv.js';
import { CBOR_MEDIA_TYPE, CBOR_SEQUENCE_MEDIA_TYPE } from './cbor.js';
import { NotAcceptableError } from './errors.js';
import { type AcceptClause, acceptClauseMatches, parseAccept } from './media-type.js';

export type Encoding = 'json' | 'yaml' | 'protobuf' | 'cbor';
export type ConversionKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** An `as=...;g=...;v=...` conversion the client asked for and the endpoint allows. */
export interface ConversionTarget {
  readonly as: ConversionKind;
  /** The meta group as sent (`meta.orch.io`). */
  readonly group: string;
  /** `v1` or `v1beta1`: the apiVersion of the converted object is `${group}/${version}`. */
  readonly version: string;
}

export interface NegotiatedMedia {
  /** The serializer's media type, e.g. `application/vnd.kubernetes.protobuf` when asked for. */
  readonly mediaType: string;
  /** The `Content-Type` header value to send. */
  readonly contentType: string;
  readonly encoding: Encoding;
  readonly target?: ConversionTarget;
  /** Indent the JSON (`pretty=1` parameter, `?pretty=true`, or a curl/wget/browser agent). */
  readonly pretty: boolean;
}

export interface NegotiationOptions {
  /** Feature gate `CBORServingAndStorage`: offer `application/cbor`. */
  readonly cborEnabled: boolean;
  /**
   * Encodings the resource itself is served in, without a conversion (kube's
   * StandardSerializers; custom resources: no protobuf). Default: all.
   */
  readonly encodings?: readonly Encoding[];
  /** The endpoint can convert to `Table` (kube: it has a table convertor). Default true. */
  readonly table?: boolean;
  /** The endpoint can convert to `PartialObjectMetadata(List)`. Default true. */
  readonly partialObjectMetadata?: boolean;
  /** Group of the conversion kinds (the domain's meta group). Default: the `orch.io` profile's. */
  readonly metaGroup?: string;
  /** The Protobuf media type served (the domain's). Default: the `orch.io` profile's. */
  readonly protobufMediaType?: string;
  /** Versions of that group accepted in `v=`. Default `v1` and `v1beta1`, as kube. */
  readonly metaVersions?: readonly string[];
  /** First value of the `pretty` query parameter, if present. */
  readonly prettyParam?: string;
  readonly userAgent?: string;
}

export const JSON_MEDIA_TYPE = 'application/json';
export const YAML_MEDIA_TYPE = 'application/yaml';
export const KUBERNETES_PROTOBUF = 'application/vnd.kubernetes.protobuf';

interface Serializer {
  readonly encoding: Encoding;
  readonly mediaType: string;
  readonly type: string;
  readonly subType: string;
  /** Has a stream serializer, so it can serve watches (YAML cannot). */
  readonly streams: boolean;
  /** Listed in error messages; the kube protobuf name is an accepted alias only. */
  readonly listed: boolean;
  /** Its answer without conversion or indentation, made once: most requests get this one. */
  readonly plain: NegotiatedMedia;
}

function serializer(encoding: Encoding, mediaType: string, streams: boolean, listed = true): Serializer {
  const [type, subType] = mediaType.split('/');
  const plain = Object.freeze({ mediaType, contentType: mediaType, encoding, pretty: false });
  return { encoding, mediaType, type, subType, streams, listed, plain };
}

interface SerializerSet {
  readonly base: readonly Serializer[];
  readonly withCbor: readonly Serializer[];
}

/**
 * The serializers of a profile: its own Protobuf type is listed; the `orch.io` profile accepts
 * kubectl's `application/vnd.kubernetes.protobuf` as an unlisted alias.
 */
function serializerSet(protobufMediaType: string): SerializerSet {
  const base = [
    serializer('json', JSON_MEDIA_TYPE, true),
    serializer('yaml', YAML_MEDIA_TYPE, false),
    serializer('protobuf', protobufMediaType, true),
    ...(protobufMediaType === KUBERNETES_PROTOBUF ? [] : [serializer('protobuf', KUBERNETES_PROTOBUF, true, false)]),
  ];
  return { base, withCbor: [...base, serializer('cbor', CBOR_MEDIA_TYPE, true)] };
}

// Built once per profile: negotiation runs on every request.
const ORCH_SERIALIZERS = serializerSet(ORCH_DOMAIN.protobufMediaType);
const KUBE_SERIALIZERS = serializerSet(KUBERNETES_PROTOBUF);

/** The serializers of a profile, by its Protobuf media type. */
export function serializers(
  cborEnabled: boolean,
  protobufMediaType: string = ORCH_DOMAIN.protobufMediaType,
): readonly Serializer[] {
  const set = protobufMediaType === KUBERNETES_PROTOBUF ? KUBE_SERIALIZERS : ORCH_SERIALIZERS;
  return cborEnabled ? set.withCbor : set.base;
}

/**
 * kube's `MediaTypesForSerializer`: the media types named in 406/415 messages, and the
 * streaming ones (`application/json;stream=watch`, ..., `application/cbor-seq`).
 */
export function supportedMediaTypes(
  cborEnabled: boolean,
  protobufMediaType?: string,
): { mediaTypes: string[]; streamMediaTypes: string[] } {
  const listed = serializers(cborEnabled, protobufMediaType).filter((s) => s.listed);
  return {
    mediaTypes: listed.map((s) => s.mediaType),
    streamMediaTypes: listed
      .filter((s) => s.streams)
      .map((s) => (s.encoding === 'cbor' ? CBOR_SEQUENCE_MEDIA_TYPE : `${s.mediaType};stream=watch`)),
  };
}

/** The endpoint's say on a clause: kube's `RequestScope` or `DefaultEndpointRestrictions`. */
interface Convert {
  readonly as?: string;
  readonly group?: string;
  readonly version?: string;
}

interface Restrictions {
  allowsTransform(s: Serializer, convert: Convert | undefined): boolean;
  allowsServerVersion(version: string): boolean;
}

function scopeRestrictions(opts: NegotiationOptions): Restrictions {
  const metaGroup = opts.metaGroup ?? ORCH_DOMAIN.metaGroup;
  const metaVersions = opts.metaVersions ?? ['v1', 'v1beta1'];
  return {
    allowsTransform(s, convert) {
      if (!convert) return !opts.encodings || opts.encodings.includes(s.encoding);
      if (convert.group !== metaGroup || !metaVersions.includes(convert.version ?? '')) return false;
      if (convert.as === 'Table') {
        return (opts.table ?? true) && (s.encoding === 'json' || s.encoding === 'yaml');
      }
      if (convert.as === 'PartialObjectMetadata' || convert.as === 'PartialObjectMetadataList') {
        return opts.partialObjectMetadata ?? true;
      }
      return false;
    },
    allowsServerVersion: (version) => version === 'v1',
  };
}

const defaultRestrictions: Restrictions = {
  allowsTransform: (_s, convert) => convert === undefined,
  allowsServerVersion: () => false,
};

interface Match {
  readonly serializer: Serializer;
  readonly convert?: Convert;
  readonly pretty: boolean;
}

/** kube's `acceptMediaTypeOptions`: the clause's parameters against the serializer. */
function acceptOptions(clause: AcceptClause, s: Serializer, r: Restrictions): Match | undefined {
  let convert: Convert | undefined;
  let pretty = false;
  for (const [key, value] of Object.entries(clause.params)) {
    switch (key) {
      case 'as':
        convert = { ...convert, as: value };
        break;
      case 'g':
        convert = { ...convert, group: value };
        break;
      case 'v':
        convert = { ...convert, version: value };
        break;
      case 'stream':
        if (value !== '' && (!s.streams || value !== 'watch')) return undefined;
        break;
      case 'sv':
        if (value !== '' && !r.allowsServerVersion(value)) return undefined;
        break;
      case 'pretty':
        pretty = value === '1';
        break;
      default:
        // `export` and unknown parameters are ignored.
        break;
    }
  }
  if (!r.allowsTransform(s, convert)) return undefined;
  return { serializer: s, convert, pretty };
}

function negotiate(accept: string | undefined, list: readonly Serializer[], r: Restrictions): Match | undefined {
  if (!accept) return { serializer: list[0], pretty: false };
  for (const clause of parseAccept(accept)) {
    for (const s of list) {
      if (!acceptClauseMatches(clause, s.type, s.subType)) continue;
      const m = acceptOptions(clause, s, r);
      if (m) return m;
    }
  }
  return undefined;
}

/** kube's `isPrettyPrint`: `?pretty=` when set and non-empty, else a human user agent. */
function prettyRequested(opts: NegotiationOptions): boolean {
  if (opts.prettyParam) return goParseBool(opts.prettyParam) ?? false;
  const ua = opts.userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

function toMedia(m: Match, opts: NegotiationOptions): NegotiatedMedia {
  const s = m.serializer;
  // A conversion passed the restrictions only with a known kind, group and version.
  const c = m.convert;
  const pretty = s.encoding === 'json' && (m.pretty || prettyRequested(opts));
  if (!c && !pretty) return s.plain;
  const target = c ? { as: c.as as ConversionKind, group: c.group ?? '', version: c.version ?? '' } : undefined;
  return {
    mediaType: s.mediaType,
    contentType: s.mediaType,
    encoding: s.encoding,
    ...(target ? { target } : {}),
    // Only JSON has a pretty serializer.
    pretty,
  };
}

/**
 * The response encoding for a get, list, create, update, patch or delete. Throws
 * `NotAcceptableError` listing every media type when no clause can be served.
 */
export function negotiateOutput(accept: string | undefined, opts: NegotiationOptions): NegotiatedMedia {
  const list = serializers(opts.cborEnabled, opts.protobufMediaType);
  // Without an Accept header the first serializer answers: no restrictions to build.
  const m = accept ? negotiate(accept, list, scopeRestrictions(opts)) : { serializer: list[0], pretty: false };
  if (!m) throw new NotAcceptableError(supportedMediaTypes(opts.cborEnabled, opts.protobufMediaType).mediaTypes);
  return toMedia(m, opts);
}

/**
 * The encoding of a watch response: negotiated as for a list (406 with every media type when
 * nothing matches), then the chosen serializer must stream: YAML gives a 406 listing the
 * streaming types. `contentType` is `application/json` for JSON, `<protobuf type>;stream=watch`
 * for protobuf, and `application/cbor-seq` for CBOR. Never pretty.
 */
export function negotiateWatch(accept: string | undefined, opts: NegotiationOptions): NegotiatedMedia {
  const media = negotiateOutput(accept, opts);
  if (media.encoding === 'yaml') {
    throw new NotAcceptableError(supportedMediaTypes(opts.cborEnabled, opts.protobufMediaType).streamMediaTypes);
  }
  const contentType =
    media.encoding === 'json'
      ? media.mediaType
      : media.encoding === 'cbor'
        ? CBOR_SEQUENCE_MEDIA_TYPE
        : `${media.mediaType};stream=watch`;
  return { ...media, contentType, pretty: false };
}

/**
 * The encoding of an error `Status`, negotiated without the endpoint's restrictions (no
 * conversions, every serializer). When nothing matches, kube writes the Status as indented
 * JSON with its own status code instead of a 406: that answer is returned with
 * `fallback: true` (`pretty` set, as `json.MarshalIndent`).
 */
export function negotiateErrorOutput(
  accept: string | undefined,
  opts: Pick<NegotiationOptions, 'cborEnabled' | 'prettyParam' | 'userAgent' | 'protobufMediaType'>,
): NegotiatedMedia & { fallback: boolean } {
  const m = negotiate(accept, serializers(opts.cborEnabled, opts.protobufMediaType), defaultRestrictions);
  if (!m) {
    return { mediaType: JSON_MEDIA_TYPE, contentType: JSON_MEDIA_TYPE, encoding: 'json', pretty: true, fallback: true };
  }
  return { ...toMedia(m, opts), fallback: false };
}
