import { randomUUID } from 'node:crypto';
import type { CustomResourceDefinition } from '../apis/apiextensions/crd-types.js';
import { formatFieldError } from '../apis/meta/field-error.js';
import { validateAnnotations, validateLabels } from '../apis/meta/object-meta-validation.js';
import { StatusError } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import { formatGoDurationNanos } from '../util/go-duration.js';
import { aggregateErrorMessage } from '../util/go-errors.js';
import { webhookPoster } from '../util/webhook-post.js';
import type { Converter } from './conversion.js';

/** kube's client timeout for conversion webhooks (sent as `?timeout=30s`). */
export const CONVERSION_WEBHOOK_TIMEOUT_MS = 30_000;

/** Options of {@link webhookConverter}. */
export interface WebhookConverterOptions {
  /** The definition: `spec.conversion.webhook` (client configuration, review versions), group and kind. */
  readonly crd: CustomResourceDefinition;
  /** The group of `ConversionReview` (`apiextensions.<domain>`). */
  readonly reviewGroup: string;
  /** `request.uid` of each review (default: random UUIDs). */
  readonly uid?: () => string;
  /** Time one call may take (default 30 s, as kube). */
  readonly timeoutMs?: number;
}

/** A converter calling a definition's conversion webhook; `close` drops its idle connections. */
export interface WebhookConverter extends Converter {
  close(): void;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's `GroupVersionKind.String()`: `group/version, Kind=kind`. */
function gvkText(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const gv = slash < 0 ? `/${apiVersion}` : apiVersion;
  return `${gv}, Kind=${kind}`;
}

/** Go's `GroupVersion.String()` of an apiVersion (`v1` for the core group). */
function gvText(apiVersion: unknown): string {
  return typeof apiVersion === 'string' ? apiVersion : '';
}

/**
 * Node's transport errors in the words Go's client uses, so messages read as kube's:
 * refused connections and unverifiable certificates.
 */
function goTransportText(message: string): string {
  return message
    .replace(/connect ECONNREFUSED (\S+)/, 'dial tcp $1: connect: connection refused')
    .replace(
      /(self[- ]signed certificate( in certificate chain)?|unable to verify the first certificate|unable to get local issuer certificate)$/,
      'tls: failed to verify certificate: x509: certificate signed by unknown authority',
    )
    .replace(/Hostname\/IP does not match certificate's altnames: .*$/, 'tls: failed to verify certificate: $&');
}

/** The first review version of `conversionReviewVersions` the server speaks (kube: in the given order). */
function reviewVersion(versions: readonly string[]): 'v1' | 'v1beta1' | undefined {
  for (const v of versions) if (v === 'v1' || v === 'v1beta1') return v;
  return undefined;
}

/**
 * kube's `restoreObjectMeta`: the converted object gets the original's metadata, except labels
 * and annotations, which the webhook may change (they are validated when it did). Returns the
 * problem, or undefined.
 */
function restoreObjectMeta(original: ApiObject, converted: Obj): string | undefined {
  const responseMeta = converted.metadata;
  if (responseMeta === undefined) return 'missing metadata in converted object';
  if (!isObj(responseMeta)) return `invalid metadata of type ${goType(responseMeta)} in converted object`;
  const meta: Obj = structuredClone((original.metadata ?? {}) as Obj);
  for (const field of ['labels', 'annotations'] as const) {
    const given = responseMeta[field];
    if (given === undefined || given === null) {
      delete meta[field];
      continue;
    }
    if (!isObj(given)) return `invalid metadata.${field} of type ${goType(given)} in converted object`;
    const before = (meta[field] ?? {}) as Obj;
    let changed = Object.keys(before).length !== Object.keys(given).length;
    for (const [k, v] of Object.entries(given)) {
      if (typeof v !== 'string')
        return `metadata.${field}[${k}] must be a string, but is ${goType(v)} in converted object`;
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      const map = given as Record<string, string>;
      // kube names the annotations' path `metadata.annotation`.
      const errs =
        field === 'labels' ? validateLabels(map, 'metadata.labels') : validateAnnotations(map, 'metadata.annotation');
      if (errs.length > 0) return aggregateErrorMessage(errs.map(formatFieldError));
    }
    meta[field] = given;
  }
  converted.metadata = meta;
  return undefined;
}

/** The Go type name kube's messages show for a JSON value. */
function goType(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return Number.isInteger(Number(v)) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** kube's `validateConvertedObject`: kind, name, namespace and uid are the original's. */
function validateConvertedObject(original: ApiObject, converted: Obj): string | undefined {
  const meta = (isObj(converted.metadata) ? converted.metadata : {}) as Obj;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const pairs: [string, string, string][] = [
    ['kind', original.kind ?? '', str(converted.kind)],
    ['name', original.metadata?.name ?? '', str(meta.name)],
    ['namespace', original.metadata?.namespace ?? '', str(meta.namespace)],
    ['UID', original.metadata?.uid ?? '', str(meta.uid)],
  ];
  for (const [what, e, a] of pairs) if (e !== a) return `must have the same ${what}: ${e} != ${a}`;
  return undefined;
}

/**
 * The `Webhook` conversion strategy, as kube-apiserver's webhook converter does it: the objects
 * not yet in `desiredApiVersion` are sent in one `ConversionReview` (the first of
 * `conversionReviewVersions` that is `v1` or `v1beta1`) to the client configuration's `url`,
 * verified with `caBundle` (the system roots when empty), 30 s at most, not retried. The
 * answer must carry the request's uid (v1), `result.status: Success` and one converted object
 * per object sent, in order, each of the desired apiVersion with the original's kind, name,
 * namespace and uid; each keeps the original's metadata but for labels and annotations.
 * Failures reject with a 500 `StatusError` whose message is kube's
 * (`conversion webhook for <group>/<version>, Kind=<kind> failed: …`). A `service` reference
 * cannot be reached from here (no cluster network): it fails as kube does for a service
 * without endpoints.
 */
export function webhookConverter(o: WebhookConverterOptions): WebhookConverter {
  const webhook = o.crd.spec?.conversion?.webhook;
  const cc = webhook?.clientConfig ?? {};
  const kind = o.crd.spec?.names?.kind ?? o.crd.status?.acceptedNames?.kind ?? '';
  const version = reviewVersion(webhook?.conversionReviewVersions ?? []);
  const uid = o.uid ?? randomUUID;
  const timeoutMs = o.timeoutMs ?? CONVERSION_WEBHOOK_TIMEOUT_MS;
  const ca = cc.caBundle ? Buffer.from(cc.caBundle, 'base64').toString('utf8') : undefined;
  let server: URL | undefined;
  let unreachable: string | undefined;
  if (cc.url) server = new URL(cc.url);
  else if (cc.service) {
    const s = cc.service;
    const target = new URL(`https://${s.name}.${s.namespace}.svc:${s.port ?? 443}${s.path ?? ''}`);
    target.searchParams.set('timeout', formatGoDurationNanos(BigInt(Math.round(timeoutMs * 1e6))));
    unreachable = `Post ${JSON.stringify(target.href)}: no endpoints available for service ${JSON.stringify(s.name ?? '')}`;
  }
  const poster = server
    ? webhookPoster(
        { server, ca, insecureSkipTlsVerify: false },
        {
          resource: '',
          attemptTimeoutMs: timeoutMs,
          retryBackoff: { durationMs: 0, factor: 1, jitter: 0, steps: 1 },
        },
      )
    : undefined;
  const fail = (message: string) => new StatusError(500, '', message);

  /** Posts one review; the converted objects, or the failure's text (without the prefix). */
  async function exchange(objects: ApiObject[], desired: string, signal: AbortSignal): Promise<unknown[] | string> {
    const requestUid = uid();
    const apiVersion = `${o.reviewGroup}/${version}`;
    const body = JSON.stringify({
      kind: 'ConversionReview',
      apiVersion,
      request: { uid: requestUid, desiredAPIVersion: desired, objects },
      response: { uid: '', convertedObjects: null, result: { metadata: {} } },
    });
    if (!poster) return unreachable ?? 'no client configuration';
    const r = await poster.post(body, signal);
    if (!r.ok) return goTransportText(r.message.replace(/ \(post \)$/, ''));
    const review = r.body;
    if (!isObj(review)) return 'no response provided';
    if (version === 'v1') {
      const want = gvkText(apiVersion, 'ConversionReview');
      const got = gvkText(gvText(review.apiVersion), typeof review.kind === 'string' ? review.kind : '');
      if (want !== got) return `expected webhook response of ${want}, got ${got}`;
    }
    const response = review.response;
    if (!isObj(response)) return 'no response provided';
    const got = typeof response.uid === 'string' ? response.uid : '';
    if (version === 'v1' && got !== requestUid)
      return `expected response.uid=${JSON.stringify(requestUid)}, got ${JSON.stringify(got)}`;
    const result = isObj(response.result) ? response.result : {};
    if (result.status !== 'Success') {
      if (typeof result.message === 'string' && result.message !== '') return result.message;
      return `response.result.status was '${typeof result.status === 'string' ? result.status : ''}', not 'Success'`;
    }
    return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
  }

  return {
    async convert(objects, desiredApiVersion, signal, opts?: { readonly list?: boolean }) {
      const list = opts?.list ?? objects.length !== 1;
      const send = objects.filter((obj) => obj.apiVersion !== desiredApiVersion);
      if (send.length === 0) return [...objects];
      if (!version) throw fail('no supported conversion review versions');
      const first = objects[0] as ApiObject;
      const gvk = gvkText(first.apiVersion ?? '', list ? `${kind}List` : (first.kind ?? kind));
      const converted = await exchange(send, desiredApiVersion, signal);
      if (typeof converted === 'string') throw fail(`conversion webhook for ${gvk} failed: ${converted}`);
      if (converted.length !== send.length) {
        throw fail(`conversion webhook for ${gvk} returned ${converted.length} objects, expected ${send.length}`);
      }
      const what = list ? 'invalid converted object at index' : 'invalid object at index';
      const out: ApiObject[] = [];
      let n = 0;
      for (const original of objects) {
        if (original.apiVersion === desiredApiVersion) {
          out.push(original);
          continue;
        }
        const index = n++;
        const c = converted[index];
        if (!isObj(c)) throw fail(`conversion webhook for ${gvk} returned ${what} ${index}: not an object`);
        if (gvText(c.apiVersion) !== desiredApiVersion) {
          throw fail(
            `conversion webhook for ${gvk} returned ${what} ${index}: invalid groupVersion (expected ${desiredApiVersion}, received ${gvText(c.apiVersion)})`,
          );
        }
        if (c.kind !== original.kind) {
          throw fail(
            `conversion webhook for ${gvk} returned ${what} ${index}: invalid kind (expected ${original.kind}, received ${typeof c.kind === 'string' ? c.kind : ''})`,
          );
        }
        const invalid = validateConvertedObject(original, c);
        if (invalid) {
          throw fail(
            list
              ? `conversion webhook for ${gvk} returned invalid converted object at index ${index}: ${invalid}`
              : `conversion webhook for ${gvk} returned invalid object: ${invalid}`,
          );
        }
        const badMeta = restoreObjectMeta(original, c);
        if (badMeta) {
          throw fail(
            list
              ? `conversion webhook for ${gvk} returned invalid metadata in object at index ${index}: ${badMeta}`
              : `conversion webhook for ${gvk} returned invalid metadata: ${badMeta}`,
          );
        }
        out.push(c as unknown as ApiObject);
      }
      return out;
    },
    close() {
      poster?.close();
    },
  };
}
