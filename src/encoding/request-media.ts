/**
 * Request-side media types: which decoder a request body's `Content-Type` selects, and which
 * patch type a PATCH names, with kube-apiserver's 415 answers. Pure.
 */
import { APPLY_PATCH_CBOR_MEDIA_TYPE } from './cbor.js';
import { MediaTypeParseError, UnsupportedMediaTypeError } from './errors.js';
import { parseContentType } from './media-type.js';
import { type Encoding, JSON_MEDIA_TYPE, serializers, supportedMediaTypes } from './negotiation.js';

export interface RequestMedia {
  /** The parsed, lower-cased media type (`application/json` when the header is absent). */
  readonly mediaType: string;
  readonly encoding: Encoding;
  /** Parameters of the header (`charset`, ...), names lower-cased. */
  readonly params: Readonly<Record<string, string>>;
}

/**
 * kube's `NegotiateInputSerializer` for create and update bodies: an absent or empty header
 * means JSON; otherwise the header must parse (Go's `mime.ParseMediaType`) and name one of the
 * served media types (`application/cbor` only with `cborEnabled`; `encodings` can narrow the
 * set, e.g. no protobuf for custom resources). Throws `UnsupportedMediaTypeError` listing the
 * served media types.
 */
export function negotiateRequestMedia(
  contentType: string | undefined,
  options: { cborEnabled: boolean; encodings?: readonly Encoding[]; protobufMediaType?: string },
): RequestMedia {
  if (!contentType) return { mediaType: JSON_MEDIA_TYPE, encoding: 'json', params: {} };
  let parsed: ReturnType<typeof parseContentType>;
  try {
    parsed = parseContentType(contentType);
  } catch (err) {
    if (err instanceof MediaTypeParseError) throw unsupportedMedia(contentType, options, err);
    throw err;
  }
  // Every serializer decodes too (CBOR only when enabled, which the list already says).
  const encoding = serializers(true, options.protobufMediaType).find((s) => s.mediaType === parsed.mediaType)?.encoding;
  if (
    encoding === undefined ||
    (encoding === 'cbor' && !options.cborEnabled) ||
    (options.encodings !== undefined && !options.encodings.includes(encoding))
  ) {
    throw unsupportedMedia(contentType, options);
  }
  return { mediaType: parsed.mediaType, encoding, params: parsed.params };
}

/**
 * The 415 of a request body's media type, listing the served ones. A module function, not a
 * closure made per request (the server bundle keeps function names, at a cost per closure).
 */
function unsupportedMedia(
  contentType: string,
  options: { cborEnabled: boolean; protobufMediaType?: string },
  cause?: unknown,
): UnsupportedMediaTypeError {
  return new UnsupportedMediaTypeError(
    contentType,
    supportedMediaTypes(options.cborEnabled, options.protobufMediaType).mediaTypes,
    { cause },
  );
}

export type PatchType = 'json-patch' | 'merge-patch' | 'strategic-merge-patch' | 'apply-yaml' | 'apply-cbor';

const PATCH_TYPES: readonly (readonly [string, PatchType])[] = [
  ['application/json-patch+json', 'json-patch'],
  ['application/merge-patch+json', 'merge-patch'],
  ['application/strategic-merge-patch+json', 'strategic-merge-patch'],
  ['application/apply-patch+yaml', 'apply-yaml'],
  [APPLY_PATCH_CBOR_MEDIA_TYPE, 'apply-cbor'],
];

/**
 * The patch type of a PATCH, as kube's patch handler reads it: the header up to the first `;`
 * (when not at position 0), compared exactly (no trimming, case-sensitive) with the types the
 * endpoint accepts: JSON patch, merge patch, strategic merge patch (built-in kinds only; pass
 * `strategicMerge: false` for custom resources), apply YAML, and apply CBOR with `cborEnabled`.
 * Throws `UnsupportedMediaTypeError` listing the accepted types.
 */
export function negotiatePatchType(
  contentType: string | undefined,
  options: { strategicMerge: boolean; cborEnabled: boolean },
): { mediaType: string; patchType: PatchType } {
  const header = contentType ?? '';
  const semi = header.indexOf(';');
  const mediaType = semi > 0 ? header.slice(0, semi) : header;
  const accepted = PATCH_TYPES.filter(
    ([, t]) => (t !== 'strategic-merge-patch' || options.strategicMerge) && (t !== 'apply-cbor' || options.cborEnabled),
  );
  const hit = accepted.find(([m]) => m === mediaType);
  if (!hit)
    throw new UnsupportedMediaTypeError(
      header,
      accepted.map(([m]) => m),
    );
  return { mediaType, patchType: hit[1] };
}
