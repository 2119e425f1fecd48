import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from '../../util/logger.js';
import type { DebuggingConfiguration } from '../config/types.js';
import { type HealthCheck, serveHealthz } from './healthz.js';
import { PprofHandler } from './pprof.js';
import { type ServingCertificate, selfSignedServingCertificate } from './self-signed-certificate.js';

/** Whether a request may reach a path (the caller's authentication and authorization). */
export type RequestAuthorizer = (
  req: IncomingMessage,
  path: string,
) => Promise<
  { readonly allowed: true } | { readonly allowed: false; readonly status: 401 | 403; readonly reason: string }
>;

export interface ControllerManagerServerOptions {
  /** `Generic.Address`. */
  readonly address: string;
  /** `Generic.Port`; 0 picks a free port (callers skip serving for a configured 0, as kube does). */
  readonly port: number;
  /** The serving certificate (`--tls-cert-file`/`--tls-private-key-file`); default: self-signed in memory. */
  readonly certificate?: ServingCertificate;
  /** `Generic.Debugging`: `/debug/pprof/` only with `enableProfiling`. */
  readonly debugging: DebuggingConfiguration;
  /** Served at `/metrics` in Prometheus text format. */
  readonly metrics: Registry;
  /** `/healthz` checks (more can be added later); none means kube's `ping`. */
  readonly healthChecks?: readonly HealthCheck[];
  /** `/configz`: `{ <group>: <effective configuration> }` as kube's configz serves it. */
  readonly configz?: Readonly<Record<string, unknown>>;
  /**
   * Every path but `/healthz` goes through this (kube delegates to TokenReview and
   * SubjectAccessReview); default: everything allowed.
   */
  readonly authorize?: RequestAuthorizer;
  readonly logger?: Logger;
}

/** The running server. */
export interface ControllerManagerServer {
  /** The port listened on (the chosen one for port 0). */
  readonly port: number;
  /** `https://<address>:<port>` (`127.0.0.1` for the unspecified address). */
  readonly url: string;
  /** The certificate served (for clients that must trust a generated one). */
  readonly certificate: ServingCertificate;
  /** Adds `/healthz` checks (kube's MutableHealthzHandler: controllers register theirs as they start). */
  addHealthChecks(...checks: HealthCheck[]): void;
  /** Stops listening, ends open connections and any profile being recorded. Idempotent. */
  close(): Promise<void>;
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end('404 page not found\n');
}

/**
 * kube-controller-manager v1.32's secure serving: HTTPS on `address:port` with `/healthz` and
 * `/healthz/<check>`, `/metrics` (the registry in Prometheus text format), `/configz`, and
 * `/debug/pprof/...` when profiling is enabled (404 otherwise). Without a certificate a
 * self-signed one is generated in memory, as kube does when `--tls-cert-file` is not given.
 */
export async function startControllerManagerServer(
  o: ControllerManagerServerOptions,
): Promise<ControllerManagerServer> {
  const certificate = o.certificate ?? (await selfSignedServingCertificate());
  const checks: HealthCheck[] = [...(o.healthChecks ?? [])];
  const lifetime = new AbortController();
  const pprof = new PprofHandler(lifetime.signal);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/healthz' || path.startsWith('/healthz/')) {
      if (await serveHealthz(req, res, path, checks)) return;
      notFound(res);
      return;
    }
    if (o.authorize) {
      const decision = await o.authorize(req, path);
      if (!decision.allowed) {
        res.writeHead(decision.status, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(`${decision.reason}\n`);
        return;
      }
    }
    if (path === '/metrics') {
      const body = await o.metrics.metrics();
      res.writeHead(200, { 'Content-Type': o.metrics.contentType });
      res.end(body);
      return;
    }
    if (path === '/configz' && o.configz) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(o.configz));
      return;
    }
    if (o.debugging.enableProfiling && path.startsWith('/debug/pprof/')) {
      await pprof.serve(req, res, path);
      return;
    }
    notFound(res);
  };

  const server: Server = createServer({ cert: certificate.cert, key: certificate.key }, (req, res) => {
    handle(req, res).catch((e) => {
      o.logger?.error('controller manager server: request failed', { path: req.url, error: String(e) });
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Internal Server Error\n');
      } else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (e: Error) => {
      server.off('listening', listening);
      reject(e);
    };
    const listening = () => {
      server.off('error', failed);
      resolve();
    };
    server.once('error', failed);
    server.once('listening', listening);
    server.listen(o.port, o.address);
  });
  const port = (server.address() as AddressInfo).port;
  const unspecified = o.address === '0.0.0.0' || o.address === '::' || o.address === '';
  const host = unspecified ? '127.0.0.1' : o.address.includes(':') ? `[${o.address}]` : o.address;
  let closing: Promise<void> | undefined;
  return {
    port,
    url: `https://${host}:${port}`,
    certificate,
    addHealthChecks: (...more) => {
      checks.push(...more);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        lifetime.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
