import type { ApiDomain } from '../../apis/api-domain.js';
import { fieldErrors } from '../../apis/meta/field-error.js';
import { apiErrors } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { RequestContext } from '../../apis/request/request-context.js';
import { type Clock, formatTime, systemClock } from '../../util/clock.js';
import type { ObjectReader, ResourceRef } from '../object-reader.js';
import {
  EXPIRATION_EXTENSION_SECONDS,
  type ObjectClaim,
  type ServiceAccountTokenSigner,
  WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS,
} from './token-signer.js';

/** `spec.expirationSeconds` when the request names none (kube's v1 defaulting). */
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 60 * 60;
/** kube's shortest token lifetime (10 minutes). */
export const MIN_TOKEN_EXPIRATION_SECONDS = 10 * 60;
/** kube's longest token lifetime (2^32 seconds). */
export const MAX_TOKEN_EXPIRATION_SECONDS = 2 ** 32;

export interface TokenRequestDeps {
  readonly domain: ApiDomain;
  readonly signer: ServiceAccountTokenSigner;
  /** Reads the service account and the bound object; reads must be current (not a lagging cache). */
  readonly objects: ObjectReader;
  /** `spec.audiences` when the request names none: the server's API audiences. */
  readonly apiAudiences: readonly string[];
  /** `--service-account-max-token-expiration` in seconds; 0 = no cap. */
  readonly maxExpirationSeconds: number;
  /** `--service-account-extend-token-expiration`. */
  readonly extendExpiration: boolean;
  readonly clock?: Clock;
}

/** The `create` of the `serviceaccounts/token` sub-resource. */
export interface TokenRequestCreator {
  create(
    ctx: RequestContext,
    parent: { readonly namespace: string; readonly name: string },
    body: ApiObject,
    options: { readonly dryRun: boolean },
  ): Promise<ApiObject>;
}

interface TokenRequestSpec {
  audiences: string[];
  expirationSeconds: number;
  boundObjectRef?: BoundObjectRef;
}

interface BoundObjectRef {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

const ref = (resource: string): ResourceRef => ({ group: '', version: 'v1', resource });

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** encoding/json's decoding error, which kube answers with 400. */
function decodeError(field: string, got: unknown, goType: string): Error {
  const kind = Array.isArray(got) ? 'array' : typeof got === 'object' ? 'object' : typeof got;
  const struct = field.startsWith('spec.boundObjectRef.') ? 'BoundObjectReference' : 'TokenRequestSpec';
  return apiErrors.badRequest(
    `json: cannot unmarshal ${kind} into Go struct field ${struct}.${field} of type ${goType}`,
  );
}

function optionalString(obj: Record<string, unknown>, key: string, field: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw decodeError(field, v, 'string');
  return v;
}

/** The spec of a request body, defaulted as kube's v1 defaulting does. */
function specOf(body: ApiObject): TokenRequestSpec {
  const raw = (body as { spec?: unknown }).spec;
  const spec = isObject(raw) ? raw : {};
  const auds = spec.audiences ?? [];
  if (!Array.isArray(auds) || !auds.every((a) => typeof a === 'string')) {
    throw decodeError('spec.audiences', auds, '[]string');
  }
  let expirationSeconds = DEFAULT_TOKEN_EXPIRATION_SECONDS;
  if (spec.expirationSeconds !== undefined && spec.expirationSeconds !== null) {
    if (typeof spec.expirationSeconds !== 'number' || !Number.isInteger(spec.expirationSeconds)) {
      throw decodeError('spec.expirationSeconds', spec.expirationSeconds, 'int64');
    }
    expirationSeconds = spec.expirationSeconds;
  }
  const out: TokenRequestSpec = { audiences: [...auds], expirationSeconds };
  const b = spec.boundObjectRef;
  if (b !== undefined && b !== null) {
    if (!isObject(b)) throw decodeError('spec.boundObjectRef', b, 'authentication.BoundObjectReference');
    out.boundObjectRef = {
      kind: optionalString(b, 'kind', 'spec.boundObjectRef.kind'),
      apiVersion: optionalString(b, 'apiVersion', 'spec.boundObjectRef.apiVersion'),
      name: optionalString(b, 'name', 'spec.boundObjectRef.name'),
      uid: optionalString(b, 'uid', 'spec.boundObjectRef.uid'),
    };
  }
  return out;
}

/** Group of an `apiVersion` (`v1` → core, `apps/v1` → apps), as `schema.ParseGroupVersion` splits it. */
function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i === -1
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

interface Bound {
  pod?: ObjectClaim;
  secret?: ObjectClaim;
  node?: ObjectClaim;
}

/**
 * kube-apiserver's TokenRequest (`POST .../serviceaccounts/<name>/token`): checks that the body's
 * name and namespace, when set, match the path; reads the service account (404 when missing);
 * defaults `spec.audiences` to the API audiences and `spec.expirationSeconds` to 3600; refuses
 * lifetimes under 10 minutes or over 2^32 seconds (422); binds the token to a Secret, Pod or Node
 * named by `spec.boundObjectRef` (404 when missing, 409 on a uid mismatch, 400 for other kinds);
 * shortens the lifetime to the configured maximum with a warning; and answers the request with
 * `status.token` and `status.expirationTimestamp`. Like kube, a dry run issues a token too.
 */
export function tokenRequestCreator(deps: TokenRequestDeps): TokenRequestCreator {
  const clock = deps.clock ?? systemClock;
  const group = deps.domain.group('authentication');
  const gk = { group, kind: 'TokenRequest' };
  const apiAudiences = new Set(deps.apiAudiences);

  async function bind(r: BoundObjectRef, saName: string, namespace: string, ctx: RequestContext): Promise<Bound> {
    const gv = groupVersionOf(r.apiVersion ?? '');
    const kind = r.kind ?? '';
    const name = r.name ?? '';
    const get = async (resource: string, ns: string): Promise<ApiObject> => {
      const obj = name ? await deps.objects.get(ref(resource), ns, name, ctx.signal) : undefined;
      if (!obj) throw apiErrors.notFound({ group: '', resource }, name);
      return obj;
    };
    let bound: Bound;
    let uid: string;
    if (gv.group === '' && kind === 'Pod') {
      const pod = await get('pods', namespace);
      const podSa = (pod as { spec?: { serviceAccountName?: unknown } }).spec?.serviceAccountName;
      if (podSa !== saName) {
        throw apiErrors.badRequest(
          `cannot bind token for serviceaccount "${saName}" to pod running with different serviceaccount name.`,
        );
      }
      uid = pod.metadata.uid ?? '';
      bound = { pod: { name, uid } };
      const nodeName = (pod as { spec?: { nodeName?: unknown } }).spec?.nodeName;
      if (typeof nodeName === 'string' && nodeName !== '') {
        // A missing node still leaves its name in the token, as kube does.
        const node = await deps.objects.get(ref('nodes'), '', nodeName, ctx.signal);
        bound.node = { name: nodeName, uid: node?.metadata.uid ?? '' };
      }
    } else if (gv.group === '' && kind === 'Node') {
      const node = await get('nodes', '');
      uid = node.metadata.uid ?? '';
      bound = { node: { name, uid } };
    } else if (gv.group === '' && kind === 'Secret') {
      const secret = await get('secrets', namespace);
      uid = secret.metadata.uid ?? '';
      bound = { secret: { name, uid } };
    } else {
      throw apiErrors.badRequest(`cannot bind token to object of type ${gv.group}/${gv.version}, Kind=${kind}`);
    }
    if (r.uid && r.uid !== uid) {
      throw apiErrors.conflict(
        { group: gv.group, resource: kind },
        name,
        `the UID in the bound object reference (${r.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    return bound;
  }

  return {
    async create(ctx, parent, body) {
      const { namespace, name } = parent;
      if (!namespace) throw apiErrors.badRequest('namespace is required');
      const meta = isObject(body.metadata) ? body.metadata : {};
      const bodyName = typeof meta.name === 'string' ? meta.name : '';
      const bodyNamespace = typeof meta.namespace === 'string' ? meta.namespace : '';
      if (bodyName && bodyName !== name) {
        throw apiErrors.invalid(gk, name, [
          fieldErrors.invalid('metadata.name', bodyName, 'must match the service account name if specified'),
        ]);
      }
      if (bodyNamespace && bodyNamespace !== namespace) {
        throw apiErrors.invalid(gk, name, [
          fieldErrors.invalid(
            'metadata.namespace',
            bodyNamespace,
            'must match the service account namespace if specified',
          ),
        ]);
      }
      const spec = specOf(body);
      const sa = await deps.objects.get(ref('serviceaccounts'), namespace, name, ctx.signal);
      if (!sa) throw apiErrors.notFound({ group: '', resource: 'serviceaccounts' }, name);
      if (spec.audiences.length === 0) spec.audiences = [...deps.apiAudiences];
      const now = clock.now();

      const errs = [];
      if (spec.expirationSeconds < MIN_TOKEN_EXPIRATION_SECONDS) {
        errs.push(
          fieldErrors.invalid(
            'spec.expirationSeconds',
            spec.expirationSeconds,
            'may not specify a duration less than 10 minutes',
          ),
        );
      }
      if (spec.expirationSeconds > MAX_TOKEN_EXPIRATION_SECONDS) {
        errs.push(
          fieldErrors.invalid(
            'spec.expirationSeconds',
            spec.expirationSeconds,
            'may not specify a duration larger than 2^32 seconds',
          ),
        );
      }
      if (errs.length > 0) throw apiErrors.invalid(gk, '', errs);

      const bound = spec.boundObjectRef ? await bind(spec.boundObjectRef, name, namespace, ctx) : {};
      const max = deps.maxExpirationSeconds;
      if (max > 0 && spec.expirationSeconds > max) {
        ctx.warnings.add(`requested expiration of ${spec.expirationSeconds} seconds shortened to ${max} seconds`);
        spec.expirationSeconds = max;
      }
      let exp = spec.expirationSeconds;
      let warnAfterSeconds: number | undefined;
      if (
        deps.extendExpiration &&
        bound.pod &&
        exp === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS &&
        spec.audiences.every((a) => apiAudiences.has(a))
      ) {
        warnAfterSeconds = exp;
        exp = EXPIRATION_EXTENSION_SECONDS;
      }
      const signed = await deps.signer.sign({
        namespace,
        serviceAccount: { name, uid: sa.metadata.uid ?? '' },
        ...bound,
        audiences: spec.audiences,
        expirationSeconds: exp,
        warnAfterSeconds,
      });
      const outSpec: Record<string, unknown> = {
        audiences: spec.audiences,
        expirationSeconds: spec.expirationSeconds,
        boundObjectRef: spec.boundObjectRef ? dropUndefined(spec.boundObjectRef) : null,
      };
      return {
        kind: 'TokenRequest',
        apiVersion: `${group}/v1`,
        metadata: { ...meta, name, namespace, creationTimestamp: formatTime(now) },
        spec: outSpec,
        status: {
          token: signed.token,
          expirationTimestamp: formatTime(new Date(now.getTime() + spec.expirationSeconds * 1000)),
        },
      } as ApiObject;
    },
  };
}

function dropUndefined(r: BoundObjectRef): Record<string, string> {
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as Record<string, string>;
}
