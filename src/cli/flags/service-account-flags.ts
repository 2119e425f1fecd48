import type { AuthenticationOptions } from '../../authn/authentication-options.js';
import type { FlagValues } from './flag-parser.js';
import { boolFlag, customFlag, durationFlag, stringFlag } from './flag-spec.js';

const SECTION = 'Authentication';

/** pflag's `stringArray`: every occurrence is one value, commas included. */
function stringArrayFlag(o: { name: string; usage: string }) {
  return customFlag<readonly string[]>({
    ...o,
    section: SECTION,
    default: [],
    typeName: 'stringArray',
    parse: (raw, previous, first) => (first ? [raw] : [...previous, raw]),
    formatDefault: (v) => (v.length === 0 ? '' : `[${v.join(',')}]`),
  });
}

/** The service-account token flags of `orch-apiserver` (kube-apiserver's, with Orch's defaults). */
export function serviceAccountFlagTable() {
  return {
    serviceAccountIssuer: stringArrayFlag({
      name: 'service-account-issuer',
      usage:
        'Identifier of the service account token issuer. The issuer will assert this identifier in "iss" claim of issued tokens. This value is a string or URI. If this option is not a valid URI per the OpenID Discovery 1.0 spec, the ServiceAccountIssuerDiscovery endpoints are not served. When this flag is specified multiple times, the first is used to generate tokens and all are used to determine which issuers are accepted. Default: the server\'s own URL, https://<bind-address>:<secure-port>.',
    }),
    serviceAccountKeyFile: stringArrayFlag({
      name: 'service-account-key-file',
      usage:
        'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. The specified file can contain multiple keys, and the flag can be specified multiple times with different files. If unspecified, the signing key (by default the serving TLS key) is used.',
    }),
    serviceAccountSigningKeyFile: stringFlag({
      name: 'service-account-signing-key-file',
      section: SECTION,
      usage:
        'Path to the file that contains the current private key of the service account token issuer. The issuer will sign issued ID tokens with this private key. If unspecified, the serving TLS key is used.',
    }),
    serviceAccountLookup: boolFlag({
      name: 'service-account-lookup',
      default: true,
      section: SECTION,
      usage: 'If true, validate ServiceAccount tokens exist in etcd as part of authentication.',
    }),
    serviceAccountMaxTokenExpiration: durationFlag({
      name: 'service-account-max-token-expiration',
      section: SECTION,
      usage:
        'The maximum validity duration of a token created by the service account token issuer. If an otherwise valid TokenRequest with a validity duration larger than this value is requested, a token will be issued with a validity duration of this value.',
    }),
    serviceAccountExtendTokenExpiration: boolFlag({
      name: 'service-account-extend-token-expiration',
      default: true,
      section: SECTION,
      usage:
        'Turns on projected service account expiration extension during token generation, which helps safe transition from legacy token to bound service account token feature. If this flag is enabled, admission injected tokens would be extended up to 1 year to prevent unexpected failure during transition, ignoring value of service-account-max-token-expiration.',
    }),
  };
}

type ServiceAccountFlagValues = FlagValues<ReturnType<typeof serviceAccountFlagTable>>;

/** The service-account fields of the authentication options the flags describe; only flags given appear. */
export function serviceAccountOptionsFromFlags(
  v: ServiceAccountFlagValues,
  changed: ReadonlySet<string>,
): Partial<AuthenticationOptions> {
  const out: {
    -readonly [K in keyof AuthenticationOptions]?: AuthenticationOptions[K];
  } = {};
  if (changed.has('serviceAccountIssuer')) out.serviceAccountIssuers = v.serviceAccountIssuer;
  if (changed.has('serviceAccountKeyFile')) out.serviceAccountKeyFiles = v.serviceAccountKeyFile;
  if (changed.has('serviceAccountSigningKeyFile')) out.serviceAccountSigningKeyFile = v.serviceAccountSigningKeyFile;
  if (changed.has('serviceAccountLookup')) out.serviceAccountLookup = v.serviceAccountLookup;
  if (changed.has('serviceAccountMaxTokenExpiration')) {
    out.serviceAccountMaxTokenExpirationSeconds = Math.trunc(v.serviceAccountMaxTokenExpiration / 1000);
  }
  if (changed.has('serviceAccountExtendTokenExpiration')) {
    out.serviceAccountExtendTokenExpiration = v.serviceAccountExtendTokenExpiration;
  }
  return out;
}
