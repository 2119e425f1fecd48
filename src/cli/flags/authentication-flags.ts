import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import type { AuthenticationOptions } from '../../authn/authentication-options.js';
import type { FlagValues } from './flag-parser.js';
import { boolFlag, customFlag, durationFlag, enumFlag, stringFlag, stringListFlag } from './flag-spec.js';
import { serviceAccountFlagTable, serviceAccountOptionsFromFlags } from './service-account-flags.js';

const SECTION = 'Authentication';

/** The `--oidc-*` flags, by their value keys. */
const OIDC_FLAGS = [
  'oidcIssuerUrl',
  'oidcClientId',
  'oidcCaFile',
  'oidcUsernameClaim',
  'oidcUsernamePrefix',
  'oidcGroupsClaim',
  'oidcGroupsPrefix',
  'oidcSigningAlgs',
  'oidcRequiredClaim',
] as const;

/** kube's `MapStringStringNoSplit`: one `key=value` per occurrence (the value may hold commas), merged. */
function requiredClaimFlag() {
  return customFlag<Readonly<Record<string, string>>>({
    name: 'oidc-required-claim',
    section: SECTION,
    typeName: 'mapStringString',
    default: {},
    usage:
      'A key=value pair that describes a required claim in the ID Token. If set, the claim is verified to be present in the ID Token with a matching value. Repeat this flag to specify multiple claims.',
    parse(raw, previous) {
      const eq = raw.indexOf('=');
      if (eq < 0) throw new Error('malformed pair, expect string=string');
      return { ...previous, [raw.slice(0, eq).trim()]: raw.slice(eq + 1).trim() };
    },
    formatDefault: (v) =>
      Object.entries(v)
        .map(([k, x]) => `${k}=${x}`)
        .join(','),
  });
}

/** The authentication flags of `orch-apiserver`, one per method option. */
export function authenticationFlagTable() {
  return {
    authenticationConfig: stringFlag({
      name: 'authentication-config',
      section: SECTION,
      usage:
        'File with Authentication Configuration to configure the JWT Token authenticator or the anonymous authenticator. Requires the StructuredAuthenticationConfiguration feature gate. This flag is mutually exclusive with the --oidc-* flags if the file configures the JWT Token authenticator. This flag is mutually exclusive with --anonymous-auth if the file configures the Anonymous authenticator.',
    }),
    anonymousAuth: boolFlag({
      name: 'anonymous-auth',
      default: true,
      section: SECTION,
      usage:
        'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated.',
    }),
    apiAudiences: stringListFlag({
      name: 'api-audiences',
      section: SECTION,
      usage:
        'Identifiers of the API. The service account token authenticator will validate that tokens used against the API are bound to at least one of these audiences. If the --service-account-issuer flag is configured and this flag is not, this field defaults to a single element list containing the issuer URL.',
    }),
    oidcIssuerUrl: stringFlag({
      name: 'oidc-issuer-url',
      section: SECTION,
      usage:
        'The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the OIDC JSON Web Token (JWT).',
    }),
    oidcClientId: stringFlag({
      name: 'oidc-client-id',
      section: SECTION,
      usage: 'The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.',
    }),
    oidcCaFile: stringFlag({
      name: 'oidc-ca-file',
      section: SECTION,
      usage:
        "If set, the OpenID server's certificate will be verified by one of the authorities in the oidc-ca-file, otherwise the host's root CA set will be used.",
    }),
    oidcUsernameClaim: stringFlag({
      name: 'oidc-username-claim',
      section: SECTION,
      default: 'sub',
      usage:
        "The OpenID claim to use as the user name. Note that claims other than the default ('sub') is not guaranteed to be unique and immutable. This flag is experimental, please see the authentication documentation for further details.",
    }),
    oidcUsernamePrefix: stringFlag({
      name: 'oidc-username-prefix',
      section: SECTION,
      usage:
        "If provided, all usernames will be prefixed with this value. If not provided, username claims other than 'email' are prefixed by the issuer URL to avoid clashes. To skip any prefixing, provide the value '-'.",
    }),
    oidcGroupsClaim: stringFlag({
      name: 'oidc-groups-claim',
      section: SECTION,
      usage:
        'If provided, the name of a custom OpenID Connect claim for specifying user groups. The claim value is expected to be a string or array of strings. This flag is experimental, please see the authentication documentation for further details.',
    }),
    oidcGroupsPrefix: stringFlag({
      name: 'oidc-groups-prefix',
      section: SECTION,
      usage:
        'If provided, all groups will be prefixed with this value to prevent conflicts with other authentication strategies.',
    }),
    oidcSigningAlgs: stringListFlag({
      name: 'oidc-signing-algs',
      section: SECTION,
      default: ['RS256'],
      usage:
        "Comma-separated list of allowed JOSE asymmetric signing algorithms. JWTs with a supported 'alg' header values are: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512. Values are defined by RFC 7518 https://tools.ietf.org/html/rfc7518#section-3.1.",
    }),
    oidcRequiredClaim: requiredClaimFlag(),
    tokenAuthFile: stringFlag({
      name: 'token-auth-file',
      section: SECTION,
      usage: 'If set, the file that will be used to secure the secure port of the API server via token authentication.',
    }),
    enableBootstrapTokenAuth: boolFlag({
      name: 'enable-bootstrap-token-auth',
      section: SECTION,
      usage: `Enable to allow secrets of type '${ORCH_DOMAIN.key('bootstrap', 'token')}' in the '${ORCH_DOMAIN.systemNamespace}' namespace to be used for TLS bootstrapping authentication.`,
    }),
    authenticationTokenWebhookConfigFile: stringFlag({
      name: 'authentication-token-webhook-config-file',
      section: SECTION,
      usage:
        'File with webhook configuration for token authentication in kubeconfig format. The API server will query the remote service to determine authentication for bearer tokens.',
    }),
    authenticationTokenWebhookVersion: enumFlag({
      name: 'authentication-token-webhook-version',
      values: ['v1beta1', 'v1'] as const,
      default: 'v1beta1',
      section: SECTION,
      usage: `The API version of the ${ORCH_DOMAIN.group('authentication')} TokenReview to send to and expect from the webhook.`,
    }),
    authenticationTokenWebhookCacheTtlMs: durationFlag({
      name: 'authentication-token-webhook-cache-ttl',
      default: 120_000,
      section: SECTION,
      usage: 'The duration to cache responses from the webhook token authenticator.',
    }),
    requestheaderUsernameHeaders: stringListFlag({
      name: 'requestheader-username-headers',
      section: SECTION,
      usage: 'List of request headers to inspect for usernames. X-Remote-User is common.',
    }),
    requestheaderGroupHeaders: stringListFlag({
      name: 'requestheader-group-headers',
      section: SECTION,
      usage: 'List of request headers to inspect for groups. X-Remote-Group is suggested.',
    }),
    requestheaderExtraHeadersPrefix: stringListFlag({
      name: 'requestheader-extra-headers-prefix',
      section: SECTION,
      usage: 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
    }),
    requestheaderClientCaFile: stringFlag({
      name: 'requestheader-client-ca-file',
      section: SECTION,
      usage:
        'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers. WARNING: generally do not depend on authorization being already done for incoming requests.',
    }),
    requestheaderAllowedNames: stringListFlag({
      name: 'requestheader-allowed-names',
      section: SECTION,
      usage:
        'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
    }),
    ...serviceAccountFlagTable(),
  };
}

type AuthenticationFlagValues = FlagValues<ReturnType<typeof authenticationFlagTable>>;

/** kube's `checkForWhiteSpaceOnly`. */
function blankEntry(flag: string, values: readonly string[]): string | undefined {
  return values.some((v) => v.trim() === '') ? `empty value in ${JSON.stringify(flag)}` : undefined;
}

/**
 * The authentication options the flags describe, with every problem of their combination.
 * `changed` names the flags given on the command line. `warnings` repeats kube-apiserver's
 * start-up warnings (request headers without the standard names break API aggregation).
 */
export function authenticationOptionsFromFlags(
  v: AuthenticationFlagValues,
  changed: ReadonlySet<string>,
): {
  readonly options: AuthenticationOptions;
  readonly problems: readonly string[];
  readonly warnings: readonly string[];
} {
  const problems: string[] = [];
  const warnings: string[] = [];
  const oidcSet = OIDC_FLAGS.some((f) => changed.has(f));
  const configFile = v.authenticationConfig;
  if (configFile === '' && oidcSet && (v.oidcIssuerUrl === '' || v.oidcClientId === '')) {
    problems.push('oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set');
  }
  if (configFile !== '' && oidcSet) problems.push('authentication-config file and oidc-* flags are mutually exclusive');
  if (v.authenticationTokenWebhookCacheTtlMs < 0) {
    problems.push('--authentication-token-webhook-cache-ttl can not be a negative value');
  }
  const rhLists: [string, readonly string[]][] = [
    ['requestheader-username-headers', v.requestheaderUsernameHeaders],
    ['requestheader-group-headers', v.requestheaderGroupHeaders],
    ['requestheader-extra-headers-prefix', v.requestheaderExtraHeadersPrefix],
    ['requestheader-allowed-names', v.requestheaderAllowedNames],
  ];
  for (const [flag, values] of rhLists) {
    const p = blankEntry(flag, values);
    if (p) problems.push(p);
  }
  const rhCa = v.requestheaderClientCaFile;
  if (rhCa === '') {
    for (const [flag, values] of rhLists) {
      if (values.length > 0) problems.push(`--${flag} requires --requestheader-client-ca-file`);
    }
  } else if (v.requestheaderUsernameHeaders.length === 0) {
    problems.push('--requestheader-client-ca-file requires --requestheader-username-headers');
  }
  const has = (list: readonly string[], name: string) => list.some((x) => x.toLowerCase() === name.toLowerCase());
  if (v.requestheaderUsernameHeaders.length > 0 && !has(v.requestheaderUsernameHeaders, 'X-Remote-User')) {
    warnings.push(
      '--requestheader-username-headers is set without specifying the standard X-Remote-User header - API aggregation will not work',
    );
  }
  if (v.requestheaderGroupHeaders.length > 0 && !has(v.requestheaderGroupHeaders, 'X-Remote-Group')) {
    warnings.push(
      '--requestheader-group-headers is set without specifying the standard X-Remote-Group header - API aggregation will not work',
    );
  }
  if (v.requestheaderExtraHeadersPrefix.length > 0 && !has(v.requestheaderExtraHeadersPrefix, 'X-Remote-Extra-')) {
    warnings.push(
      '--requestheader-extra-headers-prefix is set without specifying the standard X-Remote-Extra- header prefix - API aggregation will not work',
    );
  }
  const options: AuthenticationOptions = {
    anonymous: changed.has('anonymousAuth') ? v.anonymousAuth : undefined,
    apiAudiences: v.apiAudiences.length > 0 ? v.apiAudiences : undefined,
    // Methods appear only when configured, so options compare equal to hand-written ones.
    ...(v.tokenAuthFile ? { tokenAuthFile: v.tokenAuthFile } : {}),
    ...(configFile !== '' ? { authenticationConfigFile: configFile } : {}),
    ...(oidcSet
      ? {
          oidc: {
            issuerURL: v.oidcIssuerUrl,
            clientID: v.oidcClientId,
            caFile: v.oidcCaFile !== '' ? v.oidcCaFile : undefined,
            usernameClaim: v.oidcUsernameClaim,
            usernamePrefix: v.oidcUsernamePrefix,
            groupsClaim: v.oidcGroupsClaim,
            groupsPrefix: v.oidcGroupsPrefix,
            signingAlgs: v.oidcSigningAlgs,
            requiredClaims: v.oidcRequiredClaim,
          },
        }
      : {}),
    ...(v.enableBootstrapTokenAuth ? { enableBootstrapTokenAuth: true } : {}),
    ...(v.authenticationTokenWebhookConfigFile
      ? {
          tokenWebhook: {
            configFile: v.authenticationTokenWebhookConfigFile,
            version: v.authenticationTokenWebhookVersion,
            cacheTtlMs: v.authenticationTokenWebhookCacheTtlMs,
          },
        }
      : {}),
    ...(rhCa
      ? {
          requestHeader: {
            clientCaFile: rhCa,
            usernameHeaders: v.requestheaderUsernameHeaders,
            groupHeaders: v.requestheaderGroupHeaders,
            extraHeaderPrefixes: v.requestheaderExtraHeadersPrefix,
            allowedNames: v.requestheaderAllowedNames,
          },
        }
      : {}),
    ...serviceAccountOptionsFromFlags(v, changed),
  };
  return { options, problems, warnings };
}
