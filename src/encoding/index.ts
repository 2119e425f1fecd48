/**
 * The encoding layer: content negotiation, JSON/YAML/CBOR codecs with kube-apiserver's exact
 * output and error wording, field validation, warnings and response compression. Protobuf
 * lives in `./protobuf/`. Pure libraries; the HTTP handlers wire them in.
 */
export {
  APPLY_PATCH_CBOR_MEDIA_TYPE,
  CBOR_MEDIA_TYPE,
  CBOR_SEQUENCE_MEDIA_TYPE,
  type CborDecodeOptions,
  decodeCbor,
  decodeCborSequence,
  encodeCbor,
  encodeCborWatchEvent,
  hasSelfDescribedCborPrefix,
  SELF_DESCRIBED_CBOR,
} from './cbor.js';
export { CborSequenceReader } from './cbor-sequence-reader.js';
export {
  acceptsGzip,
  GZIP_LEVEL,
  GZIP_RESPONSE_HEADERS,
  GZIP_THRESHOLD_BYTES,
  gzipBody,
  gzipBodyAsync,
  shouldGzip,
} from './compression.js';
export {
  cannotBeHandledMessage,
  summarizeData,
  unrecognizedObjectMessage,
} from './decode-errors.js';
export { EncodingCache } from './encoding-cache.js';
export {
  CborDecodeError,
  CborEncodeError,
  JsonSyntaxError,
  MediaTypeParseError,
  NotAcceptableError,
  StrictDecodingError,
  UnsupportedMediaTypeError,
  UnsupportedValueError,
  YamlSyntaxError,
} from './errors.js';
export {
  type FieldValidationDirective,
  fieldValidation,
  InvalidFieldValidationError,
  type OptionsKind,
  parseFieldValidation,
  type StrictFieldReport,
  splitYamlWarnings,
  strictDecodingErrors,
} from './field-validation.js';
export {
  type DeferredBytes,
  encodeJson,
  encodeJsonCompact,
  encodeJsonList,
  encodeJsonListChunks,
  goJsonEscape,
  type JsonChunks,
  type JsonItems,
  type JsonPart,
  LIST_CHUNK_BYTES,
  partBytes,
  partItems,
  partLength,
  type SplicedBytes,
  writePart,
  writeSpliced,
} from './json-encode.js';
export {
  countTextKeys,
  type DuplicateField,
  decodeJsonStrict,
  type JsonStrictResult,
  locateJsonPaths,
  MAX_STRICT_ERRORS,
  parseJsonText,
  TEXT_WITHIN_NESTING_LIMIT,
} from './json-strict.js';
export { findJsonSyntaxError } from './json-syntax.js';
export {
  type AcceptClause,
  acceptClauseMatches,
  mediaTypeEssence,
  type ParsedMediaType,
  parseAccept,
  parseContentType,
  preferredMediaType,
} from './media-type.js';
export {
  type ConversionKind,
  type ConversionTarget,
  type Encoding,
  JSON_MEDIA_TYPE,
  KUBERNETES_PROTOBUF,
  type NegotiatedMedia,
  type NegotiationOptions,
  negotiateErrorOutput,
  negotiateOutput,
  negotiateWatch,
  supportedMediaTypes,
  YAML_MEDIA_TYPE,
} from './negotiation.js';
export { negotiatePatchType, negotiateRequestMedia, type PatchType, type RequestMedia } from './request-media.js';
export { decodeUtf8Lenient } from './utf8.js';
export { WarningRecorder, warningHeaderValue } from './warnings.js';
export { decodeYamlStrict, type YamlStrictResult, yamlStrictErrorText } from './yaml-decode.js';
export { encodeYaml } from './yaml-encode.js';
