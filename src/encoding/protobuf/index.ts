/**
 * Schema-driven protobuf codec for built-in kinds, wire-compatible with kube-apiserver's
 * `application/vnd.kubernetes.protobuf` (kubectl, client-go). Pure and synchronous.
 */
export { hasProtobufPrefix, type TypeMeta } from './envelope.js';
export {
  ProtobufDecodeError,
  type ProtobufDecodeErrorReason,
  ProtobufEncodeError,
  ProtobufSchemaError,
} from './errors.js';
export {
  decodeList,
  encodeItemMessage,
  encodeList,
  encodeListOfMessages,
  type ObjectList,
} from './list-codec.js';
export { decodeObject, type ExpectedType, encodeObject, envelopeMessage, peekTypeMeta } from './object-codec.js';
export {
  decodeOpenApiV2,
  encodeOpenApiV2,
  OPENAPI_V2_PROTOBUF_MEDIA_TYPE,
  OPENAPI_V2_PROTOBUF_MEDIA_TYPE_DEPRECATED,
} from './openapi-v2.js';
export { decodeStatus, encodeStatus } from './status-codec.js';
export {
  DEFAULT_MAX_FRAME_BYTES,
  decodeWatchEvent,
  decodeWatchEventObject,
  encodeWatchEvent,
  encodeWatchFrame,
  type ProtobufWatchEvent,
  WatchFrameReader,
} from './watch-codec.js';
