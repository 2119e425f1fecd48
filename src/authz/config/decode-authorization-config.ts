import { parseDocument } from 'yaml';
import type { ApiDomain } from '../../apis/api-domain.js';
import { parseGoDurationNanos } from '../../util/go-duration.js';
import { aggregateErrorMessage } from '../../util/go-errors.js';
import { checkGoStrict, type GoShape, jsonKind } from '../../util/go-strict-json.js';
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

const str: GoShape = { kind: 'string', goType: 'string' };
const duration: GoShape = { kind: 'duration' };

function configShape(domain: ApiDomain): GoShape {
  const webhook: GoShape = {
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
  const state = checkGoStrict(record, configShape(domain), 'AuthorizationConfiguration');
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
