/**
 * Protobuf media types. Orch's own is `application/vnd.orch.protobuf`; kube clients (kubectl,
 * client-go) send and accept `application/vnd.kubernetes.protobuf`, which is served as an alias.
 * Watch responses add the parameter `stream=watch`.
 */

import { mediaTypeEssence } from '../media-type.js';

export const ORCH_PROTOBUF_MEDIA_TYPE = 'application/vnd.orch.protobuf';
export const KUBERNETES_PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** Every protobuf media type the server understands, its own first. */
export const PROTOBUF_MEDIA_TYPES: readonly string[] = Object.freeze([
  ORCH_PROTOBUF_MEDIA_TYPE,
  KUBERNETES_PROTOBUF_MEDIA_TYPE,
]);

/** True when `contentType` (parameters allowed, any case) is one of `PROTOBUF_MEDIA_TYPES`. */
export function isProtobufMediaType(contentType: string): boolean {
  const essence = mediaTypeEssence(contentType);
  return essence === ORCH_PROTOBUF_MEDIA_TYPE || essence === KUBERNETES_PROTOBUF_MEDIA_TYPE;
}

/** The `Content-Type` of a protobuf watch response in the negotiated protobuf media type. */
export function protobufWatchContentType(mediaType: string): string {
  return `${mediaType};stream=watch`;
}
