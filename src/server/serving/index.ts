export {
  RequestAbortedError,
  RequestBodyTooLargeError,
  ResponseStateError,
  ServerStartError,
  ServingError,
  type ServingErrorCode,
} from './errors.js';
export type { HttpExchange, HttpProtocol, ResponseHeaders, ResponseStream } from './exchange.js';
export {
  type CloseOptions,
  type ExchangeHandler,
  type SecureServer,
  type SecureServerOptions,
  startSecureServer,
  type TlsMaterial,
} from './secure-server.js';
export { byteLength, isBodylessStatus, type ServingLogger } from './serving-context.js';
