import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';

/** A response: status and parsed JSON body (undefined when not JSON). */
export interface Reply {
  readonly status: number;
  readonly body: Record<string, unknown> | undefined;
}

/** An admin HTTPS client for the cluster's API servers or balancer on 127.0.0.1. */
export interface ClusterClient {
  call(port: number, method: string, path: string, body?: unknown, timeoutMs?: number): Promise<Reply>;
  /** Opens a watch; `onEvent` gets each decoded event; resolves when the stream ends (or fails). */
  watch(port: number, path: string, onEvent: (e: WatchEvent) => void, signal: AbortSignal): Promise<void>;
  close(): void;
}

export interface WatchEvent {
  readonly type: string;
  readonly object: { metadata?: { name?: string; resourceVersion?: string }; code?: number };
}

/** Reads the shared admin certificate and CA from the cluster's certificate directory. */
export function clusterClient(certDir: string): ClusterClient {
  const tls = {
    ca: readFileSync(join(certDir, 'ca.crt'), 'utf8'),
    cert: readFileSync(join(certDir, 'admin.crt'), 'utf8'),
    key: readFileSync(join(certDir, 'admin.key'), 'utf8'),
  };
  const agent = new Agent({ keepAlive: true, maxSockets: 32, ...tls });
  return {
    call(port, method, path, body, timeoutMs = 10_000) {
      return new Promise<Reply>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = request(
          {
            host: '127.0.0.1',
            port,
            method,
            path,
            agent,
            timeout: timeoutMs,
            headers: payload ? { 'content-type': 'application/json' } : {},
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => {
              text += c;
            });
            res.on('end', () => {
              let parsed: Record<string, unknown> | undefined;
              try {
                parsed = JSON.parse(text) as Record<string, unknown>;
              } catch {
                parsed = undefined;
              }
              resolve({ status: res.statusCode ?? 0, body: parsed });
            });
            res.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(new Error('request timed out')));
        req.on('error', reject);
        req.end(payload);
      });
    },
    watch(port, path, onEvent, signal) {
      return new Promise<void>((resolve) => {
        const req = request({ host: '127.0.0.1', port, method: 'GET', path, agent: false, signal, ...tls }, (res) => {
          let buf = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            buf += c;
            for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
              const line = buf.slice(0, i).trim();
              buf = buf.slice(i + 1);
              if (line) onEvent(JSON.parse(line) as WatchEvent);
            }
          });
          res.on('end', () => resolve());
          res.on('error', () => resolve());
          res.on('close', () => resolve());
        });
        req.on('error', () => resolve());
        req.end();
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** `metadata.resourceVersion` of a reply body ('' when absent). */
export function rvOf(body: Record<string, unknown> | undefined): string {
  const meta = body?.metadata as { resourceVersion?: unknown } | undefined;
  return typeof meta?.resourceVersion === 'string' ? meta.resourceVersion : '';
}
