// A loopback HTTPS conversion webhook for custom resource tests: it converts between v1
// (`spec.color`) and v2 (`spec.colour`), records every ConversionReview and can be told to
// misbehave (rename objects, drop one, fail, add a label); and the CRDs it converts.
import { createServer, type Server } from 'node:https';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import {
  type CertificateKeyPair,
  createCertificateAuthority,
  issueServingCertificate,
} from '../../src/server/tls/certificate-factory.js';
import { crdManifest } from './crd-fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/** The group of the test kinds. */
export const GROUP = 'conv.example.com';

/** v1 has `spec.color`, v2 `spec.colour`; v1 is stored. */
function colourVersions(): object[] {
  const schema = (field: string) => ({
    openAPIV3Schema: {
      type: 'object',
      properties: { spec: { type: 'object', properties: { [field]: { type: 'string' }, size: { type: 'integer' } } } },
    },
  });
  return [
    {
      name: 'v1',
      served: true,
      storage: true,
      schema: schema('color'),
      selectableFields: [{ jsonPath: '.spec.color' }],
    },
    {
      name: 'v2',
      served: true,
      storage: false,
      schema: schema('colour'),
      selectableFields: [{ jsonPath: '.spec.colour' }],
    },
  ];
}

/** A CRD converted by a webhook at `url`. */
export function webhookCrd(o: {
  plural: string;
  kind: string;
  url: string;
  caBundle?: string;
  domain?: string;
  reviewVersions?: string[];
}): Json {
  const m: Json = crdManifest({
    group: GROUP,
    plural: o.plural,
    kind: o.kind,
    versions: colourVersions(),
    domain: o.domain,
  });
  m.spec.conversion = {
    strategy: 'Webhook',
    webhook: {
      conversionReviewVersions: o.reviewVersions ?? ['v1'],
      clientConfig: { url: o.url, ...(o.caBundle ? { caBundle: o.caBundle } : {}) },
    },
  };
  return m;
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** How the webhook answers. */
export type ConversionMode = 'convert' | 'rename' | 'drop-one' | 'fail' | 'label' | 'meddle';

export interface ConversionWebhook {
  /** `https://127.0.0.1:<port><path>`. */
  url(path?: string): string;
  /** The webhook's serving CA, base64 (a CRD's `caBundle`). */
  readonly caBundle: string;
  /** Every review received, with the path it was posted to (query included). */
  readonly reviews: { review: Json; path: string }[];
  mode: ConversionMode;
  close(): Promise<void>;
}

/** v1 ↔ v2: `spec.color` is `spec.colour` in v2; everything else is copied. */
export function convertColour(obj: Json, desired: string): Json {
  const out = structuredClone(obj);
  const to = desired.split('/')[1];
  if (out.spec) {
    if (to === 'v2' && 'color' in out.spec) {
      out.spec.colour = out.spec.color;
      delete out.spec.color;
    } else if (to === 'v1' && 'colour' in out.spec) {
      out.spec.color = out.spec.colour;
      delete out.spec.colour;
    }
  }
  out.apiVersion = desired;
  return out;
}

function answer(review: Json, mode: ConversionMode): Json {
  const req = review.request;
  let converted: Json[] = req.objects.map((o: Json) => convertColour(o, req.desiredAPIVersion));
  if (mode === 'rename')
    converted = converted.map((o) => ({ ...o, metadata: { ...o.metadata, name: `${o.metadata.name}-renamed` } }));
  if (mode === 'drop-one') converted = converted.slice(1);
  if (mode === 'label') {
    converted = converted.map((o) => ({
      ...o,
      metadata: { ...o.metadata, labels: { ...o.metadata.labels, converted: 'yes' } },
    }));
  }
  if (mode === 'meddle') {
    // Metadata other than labels and annotations is put back by the server.
    converted = converted.map((o) => ({ ...o, metadata: { ...o.metadata, generation: 99, finalizers: ['x/y'] } }));
  }
  const result = mode === 'fail' ? { status: 'Failure', message: 'colour wheel broken' } : { status: 'Success' };
  return {
    apiVersion: review.apiVersion,
    kind: 'ConversionReview',
    response: { uid: req.uid, result, convertedObjects: mode === 'fail' ? [] : converted },
  };
}

/** Starts the webhook on 127.0.0.1 with its own serving CA. */
export async function startConversionWebhook(): Promise<ConversionWebhook & { readonly ca: CertificateKeyPair }> {
  const ca = await createCertificateAuthority({ commonName: 'conversion-webhook-ca' });
  const serving = await issueServingCertificate({ ca, hostNames: ['127.0.0.1'] });
  const reviews: ConversionWebhook['reviews'] = [];
  const hook = {
    mode: 'convert' as ConversionMode,
  };
  const server: Server = createServer(serving, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString());
      reviews.push({ review, path: req.url ?? '' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer(review, hook.mode)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(hook, {
    ca,
    caBundle: Buffer.from(ca.cert).toString('base64'),
    reviews,
    url: (path = '/convert') => `https://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}
