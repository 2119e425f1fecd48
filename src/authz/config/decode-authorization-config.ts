import { parseDocument } from 'yaml';
import type { ApiDomain } from '../../apis/api-domain.js';
import { parseGoDurationNanos } from '../../util/go-duration.js';
import { aggregateErrorMessage } from '../../util/go-errors.js';
import {
  AUTHORIZATION_CONFIGURATION_KIND,
  AUTHORIZATION_CONFIGURATION_VERSIONS,
  type AuthorizationConfiguration,
  configFileField,
  DEFAULT_AUTHORIZED_TTL_MS,
  DEFAULT_UNAUTHORIZED_TTL_MS,
  type WebhookConfiguration,
} from './types.js';

/** The file cannot be decoded (not YAML/JSON, wrong kind or version, wrong types, unknown or duplicate fields). */
export class AuthorizationConfigDecodeError extends Error {
  override readonly name = 'AuthorizationConfigDecodeError';
}

/** What a field holds, with the Go struct it decodes into (named in type errors). */
type Shape =
  | { readonly kind: 'string' | 'duration' }
  | { readonly kind: 'list'; readonly goType: string; readonly of: Shape }
  | { readonly kind: 'object'; readonly goType: string; readonly fields: Readonly<Record<string, Shape>> };

const str: Shape = { kind: 'string' };
const duration: Shape = { kind: 'duration' };

function configShape(domain: ApiDomain): Shape {
  const webhook: Shape = {
    kind: 'object',
    goType: '*WebhookConfiguration',
    fields: {
      authorizedTTL: duration,
      unauthorizedTTL: duration,
      timeout: duration,
      subjectAccessReviewVersion: str,
      matchConditionSubjectAccessReviewVersion: str,
      failurePolicy: str,
      connectionInfo: {
        kind: 'object',
        goType: 'WebhookConnectionInfo',
        fields: { type: str, [configFileField(domain)]: str },
      },
      matchConditions: {
        kind: 'list',
        goType: '[]WebhookMatchCondition',
        of: { kind: 'object', goType: 'WebhookMatchCondition', fields: { expression: str } },
      },
    },
  };
  return {
    kind: 'object',
    goType: 'AuthorizationConfiguration',
    fields: {
      apiVersion: str,
      kind: str,
      authorizers: {
        kind: 'list',
        goType: '[]AuthorizerConfiguration',
        of: { kind: 'object', goType: 'AuthorizerConfiguration', fields: { type: str, name: str, webhook } },
      },
    },
  };
}

/** Go's name for the JSON kind of a value, as its decoder reports it. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'number';
  return typeof value === 'string' ? 'string' : 'object';
}

interface DecodeState {
  readonly typeErrors: string[];
  readonly unknownFields: string[];
}

/**
 * Checks `value` against `shape` as Go's strict JSON decoding does: `null` is the zero value; a
 * wrong type is `json: cannot unmarshal <kind> into Go struct field <Struct>.<path> of type <T>`;
 * a duration is a `time.ParseDuration` text; an unknown field is `unknown field "<path>"`.
 */
function check(value: unknown, shape: Shape, path: string, goPath: string, parent: string, s: DecodeState): void {
  if (value === null || value === undefined) return;
  const wrong = (goType: string): void => {
    s.typeErrors.push(
      `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${parent}.${goPath} of type ${goType}`,
    );
  };
  switch (shape.kind) {
    case 'string':
      if (typeof value !== 'string') wrong('string');
      return;
    case 'duration': {
      if (typeof value !== 'string') {
        s.typeErrors.push(`json: cannot unmarshal ${jsonKind(value)} into Go value of type string`);
        return;
      }
      const parsed = parseGoDurationNanos(value);
      if (typeof parsed !== 'bigint') s.typeErrors.push(parsed.error);
      return;
    }
    case 'list':
      if (!Array.isArray(value)) {
        wrong(shape.goType);
        return;
      }
      value.forEach((v, i) => {
        check(v, shape.of, `${path}[${i}]`, goPath, parent, s);
      });
      return;
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) {
        wrong(shape.goType);
        return;
      }
      const structName = shape.goType.replace(/^\*/, '');
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const fieldPath = path ? `${path}.${k}` : k;
        const field = shape.fields[k];
        if (field === undefined) {
          s.unknownFields.push(`unknown field ${JSON.stringify(fieldPath)}`);
          continue;
        }
        check(v, field, fieldPath, goPath ? `${goPath}.${k}` : k, structName, s);
      }
    }
  }
}

const stringOr = (v: unknown): string => (typeof v === 'string' ? v : '');
const objectOf = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const listOf = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map(objectOf) : []);

/** A checked duration in milliseconds (0 when absent). */
function durationMs(v: unknown): number {
  if (typeof v !== 'string') return 0;
  const nanos = parseGoDurationNanos(v);
  return typeof nanos === 'bigint' ? Number(nanos) / 1e6 : 0;
}

function convertWebhook(w: Record<string, unknown>, fileField: string): WebhookConfiguration {
  const connection = objectOf(w.connectionInfo);
  const file = connection[fileField];
  return {
    authorizedTTLMs: durationMs(w.authorizedTTL) || DEFAULT_AUTHORIZED_TTL_MS,
    unauthorizedTTLMs: durationMs(w.unauthorizedTTL) || DEFAULT_UNAUTHORIZED_TTL_MS,
    timeoutMs: durationMs(w.timeout),
    subjectAccessReviewVersion: stringOr(w.subjectAccessReviewVersion),
    matchConditionSubjectAccessReviewVersion: stringOr(w.matchConditionSubjectAccessReviewVersion),
    failurePolicy: stringOr(w.failurePolicy),
    connectionInfo: { type: stringOr(connection.type), configFile: typeof file === 'string' ? file : undefined },
    matchConditions: listOf(w.matchConditions).map((m) => ({ expression: stringOr(m.expression) })),
  };
}

/**
 * Decodes an authorization configuration file (YAML or JSON) of `apiserver.config.<domain>`,
 * version `v1`, `v1beta1` or `v1alpha1`, strictly as kube-apiserver's decoder: wrong types,
 * bad durations and unknown or duplicate fields are errors. An empty file is the empty
 * configuration (no authorizers, which validation then refuses). Webhook cache times default to
 * 5 minutes and 30 seconds.
 * @throws AuthorizationConfigDecodeError
 */
export function decodeAuthorizationConfiguration(data: string, domain: ApiDomain): AuthorizationConfiguration {
  if (data.trim() === '') return { authorizers: [] };
  const parsed = parseDocument(data, { uniqueKeys: true, prettyErrors: true });
  if (parsed.errors.length > 0) {
    const messages = parsed.errors.map((e) => e.message.split('\n')[0] as string);
    throw new AuthorizationConfigDecodeError(`error converting YAML to JSON: ${aggregateErrorMessage(messages)}`);
  }
  const doc: unknown = parsed.toJS();
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new AuthorizationConfigDecodeError(
      `couldn't get version/kind; json parse error: the document is a ${jsonKind(doc)}, not an object`,
    );
  }
  const record = doc as Record<string, unknown>;
  const apiVersion = stringOr(record.apiVersion);
  const kind = stringOr(record.kind);
  if (kind === '') throw new AuthorizationConfigDecodeError(`Object 'Kind' is missing in '${JSON.stringify(doc)}'`);
  const [g, v] = apiVersion.includes('/') ? (apiVersion.split('/', 2) as [string, string]) : ['', apiVersion];
  if (
    g !== domain.group('apiserver.config') ||
    !AUTHORIZATION_CONFIGURATION_VERSIONS.includes(v) ||
    kind !== AUTHORIZATION_CONFIGURATION_KIND
  ) {
    throw new AuthorizationConfigDecodeError(
      `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`,
    );
  }
  const state: DecodeState = { typeErrors: [], unknownFields: [] };
  check(record, configShape(domain), '', '', 'AuthorizationConfiguration', state);
  if (state.typeErrors.length > 0) throw new AuthorizationConfigDecodeError(state.typeErrors[0] as string);
  if (state.unknownFields.length > 0) {
    throw new AuthorizationConfigDecodeError(`strict decoding error: ${state.unknownFields.join(', ')}`);
  }
  const fileField = configFileField(domain);
  return {
    authorizers: listOf(record.authorizers).map((a) => {
      const type = stringOr(a.type);
      const name = stringOr(a.name);
      const webhook = a.webhook;
      return webhook === undefined || webhook === null
        ? { type, name }
        : { type, name, webhook: convertWebhook(objectOf(webhook), fileField) };
    }),
  };
}
