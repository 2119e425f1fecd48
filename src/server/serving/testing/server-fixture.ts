import type { ServingCertificates } from '../../tls/ensure-certificates.js';
import { type ExchangeHandler, type SecureServer, startSecureServer } from '../secure-server.js';
import type { ServingLogger } from '../serving-context.js';
import type { ClientTls } from './clients.js';

/** Starts a server on 127.0.0.1:0 with the given handler, runs `fn`, and always closes the server. */
export async function withServer(
  certs: ServingCertificates,
  handler: ExchangeHandler,
  fn: (server: SecureServer) => Promise<void>,
  logger?: ServingLogger,
): Promise<void> {
  const server = await startSecureServer({
    host: '127.0.0.1',
    port: 0,
    tls: { cert: certs.cert, key: certs.key, ca: certs.clientCa },
    handler,
    logger,
  });
  try {
    await fn(server);
  } finally {
    await server.close({ drainTimeoutMs: 500 });
  }
}

/** Client TLS trusting the generated serving CA, optionally presenting a client certificate. */
export function clientTls(certs: ServingCertificates, client?: { cert: string; key: string }): ClientTls {
  return { ca: certs.servingCa ?? '', cert: client?.cert, key: client?.key };
}

/** Polls `predicate` every 5 ms until it holds or `timeoutMs` passes (then throws). */
export async function eventually(predicate: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A logger that keeps what it receives, for asserting on logged failures. */
export function recordingLogger(): ServingLogger & { readonly entries: { level: string; message: string }[] } {
  const entries: { level: string; message: string }[] = [];
  return {
    entries,
    debug: (message) => entries.push({ level: 'debug', message }),
    info: (message) => entries.push({ level: 'info', message }),
    warn: (message) => entries.push({ level: 'warn', message }),
    error: (message) => entries.push({ level: 'error', message }),
  };
}
