/**
 * CBOR serving (feature gate `CBORServingAndStorage`): media types, whole-object encoding and
 * decoding, and the `application/cbor-seq` framing of watch events. See `cbor-encode.ts` and
 * `cbor-decode.ts` for the wire rules, which follow kube-apiserver's CBOR serializer.
 */
import { encodeCbor, SELF_DESCRIBED_CBOR } from './cbor-encode.js';

export { type CborDecodeOptions, decodeCbor, decodeCborSequence } from './cbor-decode.js';
export { encodeCbor, SELF_DESCRIBED_CBOR } from './cbor-encode.js';

/** A single CBOR data item (request and response bodies). */
export const CBOR_MEDIA_TYPE = 'application/cbor';
/** RFC 8742 CBOR sequence: the `Content-Type` of a CBOR watch response. */
export const CBOR_SEQUENCE_MEDIA_TYPE = 'application/cbor-seq';
/** Server-side apply with a CBOR body. */
export const APPLY_PATCH_CBOR_MEDIA_TYPE = 'application/apply-patch+cbor';

/** True when `data` starts with the self-described CBOR tag (kube's CBOR recognizer). */
export function hasSelfDescribedCborPrefix(data: Uint8Array): boolean {
  return data.length >= 3 && data[0] === 0xd9 && data[1] === 0xd9 && data[2] === 0xf7;
}

// Encoded map keys of a watch event: "type" sorts before "object" (shorter first).
const TYPE_KEY = Buffer.from([0x44, ...Buffer.from('type')]);
const OBJECT_KEY = Buffer.from([0x46, ...Buffer.from('object')]);

/**
 * One frame of a CBOR watch stream: the self-described tag, then the map
 * `{"type": <event type>, "object": <object>}` as kube writes `metav1.WatchEvent`. The object
 * keeps its own self-described tag, as kube embeds the already encoded object. `object` may be
 * given already encoded (a `Uint8Array` from `encodeCbor`, reused across watchers) or as a
 * value. Frames are self-delimiting; a stream is their concatenation.
 */
export function encodeCborWatchEvent(type: string, object: unknown): Buffer {
  const encodedObject = object instanceof Uint8Array ? object : encodeCbor(object);
  const typeValue = encodeCbor(type, { selfDescribed: false });
  return Buffer.concat([SELF_DESCRIBED_CBOR, Uint8Array.of(0xa2), TYPE_KEY, typeValue, OBJECT_KEY, encodedObject]);
}
