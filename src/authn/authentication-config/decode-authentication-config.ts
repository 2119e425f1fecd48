import { parseDocument } from 'yaml';
import type { ApiDomain } from '../../apis/api-domain.js';
import { checkGoStrict, type GoShape, jsonKind } from '../../util/go-strict-json.js';
import { aggregateMessage } from './authentication-config-error.js';
import {
  AUTHENTICATION_CONFIGURATION_KIND,
  AUTHENTICATION_CONFIGURATION_VERSIONS,
  type AuthenticationConfiguration,
} from './types.js';

/** The file cannot be decoded (not YAML/JSON, wrong kind or version, wrong types, unknown fields). */
export class AuthenticationConfigDecodeError extends Error {
  override readonly name = 'AuthenticationConfigDecodeError';
}

const str: GoShape = { kind: 'string', goType: 'string' };
const list = (goType: string, of: GoShape): GoShape => ({ kind: 'list', goType, of });
const obj = (goType: string, fields: Record<string, GoShape>): GoShape => ({ kind: 'object', goType, fields });

function configShape(version: string): GoShape {
  const t = (name: string) => `${version}.${name}`;
  const prefixed = obj(t('PrefixedClaimOrExpression'), { claim: str, prefix: str, expression: str });
  return obj(t('AuthenticationConfiguration'), {
    apiVersion: str,
    kind: str,
    jwt: list(
      `[]${t('JWTAuthenticator')}`,
      obj(t('JWTAuthenticator'), {
        issuer: obj(t('Issuer'), {
          url: str,
          discoveryURL: str,
          certificateAuthority: str,
          audiences: list('[]string', str),
          audienceMatchPolicy: { kind: 'string', goType: t('AudienceMatchPolicyType') },
        }),
        claimValidationRules: list(
          `[]${t('ClaimValidationRule')}`,
          obj(t('ClaimValidationRule'), { claim: str, requiredValue: str, expression: str, message: str }),
        ),
        claimMappings: obj(t('ClaimMappings'), {
          username: prefixed,
          groups: prefixed,
          uid: obj(t('ClaimOrExpression'), { claim: str, expression: str }),
          extra: list(`[]${t('ExtraMapping')}`, obj(t('ExtraMapping'), { key: str, valueExpression: str })),
        }),
        userValidationRules: list(
          `[]${t('UserValidationRule')}`,
          obj(t('UserValidationRule'), { expression: str, message: str }),
        ),
      }),
    ),
    anonymous: obj(`*${t('AnonymousAuthConfig')}`, {
      enabled: { kind: 'bool' },
      conditions: list(`[]${t('AnonymousAuthCondition')}`, obj(t('AnonymousAuthCondition'), { path: str })),
    }),
  });
}

function stringOr(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function listOf(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v)
    ? v.map((x) => (x !== null && typeof x === 'object' ? (x as Record<string, unknown>) : {}))
    : [];
}

function objectOf(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The typed configuration from a checked document. */
function convert(doc: Record<string, unknown>): AuthenticationConfiguration {
  const jwt = listOf(doc.jwt).map((a) => {
    const issuer = objectOf(a.issuer);
    const mappings = objectOf(a.claimMappings);
    const prefixed = (m: Record<string, unknown>) => ({
      claim: stringOr(m.claim),
      prefix: typeof m.prefix === 'string' ? m.prefix : undefined,
      expression: stringOr(m.expression),
    });
    const uid = objectOf(mappings.uid);
    return {
      issuer: {
        url: stringOr(issuer.url),
        discoveryURL: stringOr(issuer.discoveryURL),
        certificateAuthority: stringOr(issuer.certificateAuthority),
        audiences: Array.isArray(issuer.audiences) ? issuer.audiences.map(stringOr) : [],
        audienceMatchPolicy: stringOr(issuer.audienceMatchPolicy),
      },
      claimValidationRules: listOf(a.claimValidationRules).map((r) => ({
        claim: stringOr(r.claim),
        requiredValue: stringOr(r.requiredValue),
        expression: stringOr(r.expression),
        message: stringOr(r.message),
      })),
      claimMappings: {
        username: prefixed(objectOf(mappings.username)),
        groups: prefixed(objectOf(mappings.groups)),
        uid: { claim: stringOr(uid.claim), expression: stringOr(uid.expression) },
        extra: listOf(mappings.extra).map((e) => ({
          key: stringOr(e.key),
          valueExpression: stringOr(e.valueExpression),
        })),
      },
      userValidationRules: listOf(a.userValidationRules).map((r) => ({
        expression: stringOr(r.expression),
        message: stringOr(r.message),
      })),
    };
  });
  if (doc.anonymous === undefined || doc.anonymous === null) return { jwt };
  const anonymous = objectOf(doc.anonymous);
  return {
    jwt,
    anonymous: {
      enabled: anonymous.enabled === true,
      conditions: listOf(anonymous.conditions).map((c) => ({ path: stringOr(c.path) })),
    },
  };
}

/**
 * Decodes an authentication configuration file (YAML or JSON) of `apiserver.config.<domain>`,
 * version `v1beta1` or `v1alpha1`, strictly: wrong types and unknown or duplicate fields are
 * errors, as kube-apiserver's strict decoder reports them.
 * @throws AuthenticationConfigDecodeError
 */
export function decodeAuthenticationConfiguration(data: string, domain: ApiDomain): AuthenticationConfiguration {
  if (data.length === 0) throw new AuthenticationConfigDecodeError('empty config data');
  const parsed = parseDocument(data, { uniqueKeys: true, prettyErrors: true });
  if (parsed.errors.length > 0) {
    const messages = parsed.errors.map((e) => e.message.split('\n')[0] as string);
    throw new AuthenticationConfigDecodeError(`error converting YAML to JSON: ${aggregateMessage(messages)}`);
  }
  const doc: unknown = parsed.toJS();
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new AuthenticationConfigDecodeError(
      `couldn't get version/kind; json parse error: the document is a ${jsonKind(doc)}, not an object`,
    );
  }
  const record = doc as Record<string, unknown>;
  const apiVersion = stringOr(record.apiVersion);
  const kind = stringOr(record.kind);
  if (kind === '') throw new AuthenticationConfigDecodeError(`Object 'Kind' is missing in '${JSON.stringify(doc)}'`);
  const group = domain.group('apiserver.config');
  const [g, v] = apiVersion.includes('/') ? (apiVersion.split('/', 2) as [string, string]) : ['', apiVersion];
  if (g !== group || !AUTHENTICATION_CONFIGURATION_VERSIONS.includes(v)) {
    throw new AuthenticationConfigDecodeError(
      `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`,
    );
  }
  if (kind !== AUTHENTICATION_CONFIGURATION_KIND) {
    throw new AuthenticationConfigDecodeError(
      `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`,
    );
  }
  const state = checkGoStrict(record, configShape(v), 'AuthenticationConfiguration');
  if (state.typeErrors.length > 0) throw new AuthenticationConfigDecodeError(state.typeErrors[0] as string);
  if (state.unknownFields.length > 0) {
    throw new AuthenticationConfigDecodeError(`strict decoding error: ${state.unknownFields.join(', ')}`);
  }
  return convert(record);
}
