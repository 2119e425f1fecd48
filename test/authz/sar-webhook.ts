// A loopback HTTPS SubjectAccessReview service for authorization webhook tests: it verifies the
// API server's client certificate, records every review and answers through a test's function.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { stringify } from 'yaml';
import { issueServingCertificate } from '../../src/server/tls/certificate-factory.js';
import { clientCert, createCertificateAuthority } from '../authn/test-pki.js';

/** A review as the webhook received it. */
export interface ReceivedReview {
  readonly apiVersion: string;
  readonly kind: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  readonly spec: any;
}

/** What the webhook does with a review: an HTTP status and body (object → JSON), maybe late. */
export interface WebhookAnswer {
  readonly status?: number;
  readonly body: unknown;
  readonly delayMs?: number;
}

export interface SarWebhook {
  /** Every review received, with the common name of the client certificate that sent it, and the path. */
  readonly calls: { review: ReceivedReview; clientCn: string | undefined; path: string }[];
  /** Sets how reviews are answered. */
  answer(fn: (review: ReceivedReview, path: string) => WebhookAnswer): void;
  /** Writes a client configuration (kubeconfig) for this webhook at `path` into `dir`; returns its full path. */
  writeKubeconfig(
    write: (name: string, text: string) => Promise<string>,
    path?: string,
    name?: string,
  ): Promise<string>;
  close(): Promise<void>;
}

/** A SubjectAccessReview answer of the review's own apiVersion. */
export function status(review: ReceivedReview, s: Record<string, unknown>): WebhookAnswer {
  return { body: { apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status: s } };
}

/** Starts the service on 127.0.0.1 with its own serving CA and a client CA for the API server. */
export async function startSarWebhook(): Promise<SarWebhook> {
  const webhookCa = await createCertificateAuthority({ commonName: 'sar-webhook-ca' });
  const serving = await issueServingCertificate({ ca: webhookCa, hostNames: ['127.0.0.1'] });
  const callerCa = await createCertificateAuthority({ commonName: 'sar-caller-ca' });
  const caller = await clientCert(callerCa, 'orch-apiserver');
  const calls: SarWebhook['calls'] = [];
  let answer: (review: ReceivedReview, path: string) => WebhookAnswer = (r) => status(r, {});
  const server: Server = createServer(
    { ...serving, ca: callerCa.cert, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString()) as ReceivedReview;
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        calls.push({ review, clientCn: peer?.subject?.CN as string | undefined, path: req.url ?? '' });
        const a = answer(review, req.url ?? '');
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
          res.end(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
        };
        if (a.delayMs) setTimeout(send, a.delayMs).unref();
        else send();
      });
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    calls,
    answer(fn) {
      answer = fn;
    },
    async writeKubeconfig(write, path = '/authorize', name = 'webhook.kubeconfig') {
      const prefix = name.replace(/\.[^.]*$/, '');
      await write(`${prefix}-ca.crt`, webhookCa.cert);
      await write(`${prefix}-caller.crt`, caller.cert);
      await write(`${prefix}-caller.key`, caller.key);
      return write(
        name,
        stringify({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [
            {
              name: 'authz',
              cluster: { server: `https://127.0.0.1:${port}${path}`, 'certificate-authority': `${prefix}-ca.crt` },
            },
          ],
          users: [
            {
              name: 'apiserver',
              user: { 'client-certificate': `${prefix}-caller.crt`, 'client-key': `${prefix}-caller.key` },
            },
          ],
          contexts: [{ name: 'webhook', context: { cluster: 'authz', user: 'apiserver' } }],
          'current-context': 'webhook',
        }),
      );
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
