import type { AuthenticationOptions } from '../../authn/authentication-options.js';
import type { FlagValues } from './flag-parser.js';
import { boolFlag, customFlag, stringFlag, stringListFlag } from './flag-spec.js';

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
  };
}

type AuthenticationFlagValues = FlagValues<ReturnType<typeof authenticationFlagTable>>;

/**
 * The authentication options the flags describe, with every problem of their combination.
 * `changed` names the flags given on the command line.
 */
export function authenticationOptionsFromFlags(
  v: AuthenticationFlagValues,
  changed: ReadonlySet<string>,
): { readonly options: AuthenticationOptions; readonly problems: readonly string[] } {
  const problems: string[] = [];
  const oidcSet = OIDC_FLAGS.some((f) => changed.has(f));
  const configFile = v.authenticationConfig;
  if (configFile === '' && oidcSet && (v.oidcIssuerUrl === '' || v.oidcClientId === '')) {
    problems.push('oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set');
  }
  if (configFile !== '' && oidcSet) problems.push('authentication-config file and oidc-* flags are mutually exclusive');
  const options: AuthenticationOptions = {
    anonymous: changed.has('anonymousAuth') ? v.anonymousAuth : undefined,
    apiAudiences: v.apiAudiences.length > 0 ? v.apiAudiences : undefined,
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
  };
  return { options, problems };
}
