import { readFile } from 'node:fs/promises';
import { readFileErrorText } from '../authentication-config/load-authentication-config.js';
import type { JwtAuthenticatorConfig } from '../authentication-config/types.js';
import { ALL_VALID_SIGNING_ALGORITHMS } from './id-token-verifier.js';

/** The `--oidc-*` flags: one JWT authenticator. Present only when at least one of them was given. */
export interface OidcOptions {
  /** `--oidc-issuer-url`. */
  readonly issuerURL: string;
  /** `--oidc-client-id`: the one audience tokens must carry. */
  readonly clientID: string;
  /** `--oidc-ca-file`: PEM CA verifying the provider; host roots when unset. */
  readonly caFile?: string;
  /** `--oidc-username-claim` (default `sub`). */
  readonly usernameClaim?: string;
  /** `--oidc-username-prefix`: `-` for none; default `<issuer>#` unless the claim is `email`. */
  readonly usernamePrefix?: string;
  /** `--oidc-groups-claim`. */
  readonly groupsClaim?: string;
  /** `--oidc-groups-prefix`. */
  readonly groupsPrefix?: string;
  /** `--oidc-signing-algs` (default `RS256`). */
  readonly signingAlgs?: readonly string[];
  /** `--oidc-required-claim` pairs, in the order given. */
  readonly requiredClaims?: Readonly<Record<string, string>>;
}

/** Problems of the flags themselves, in kube-apiserver's words (the file/flags exclusion aside). */
export function oidcOptionsProblems(o: OidcOptions): string[] {
  const problems: string[] = [];
  if (o.issuerURL === '' || o.clientID === '') {
    problems.push('oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set');
  }
  return problems;
}

/** kube-apiserver's check of `--oidc-signing-algs`: `oidc: unsupported signing alg: "HS256"`. */
export function signingAlgProblems(algs: readonly string[]): string[] {
  return algs
    .filter((alg) => !ALL_VALID_SIGNING_ALGORITHMS.includes(alg))
    .map((alg) => `oidc: unsupported signing alg: ${JSON.stringify(alg)}`);
}

/**
 * The JWT authenticator the flags describe, as kube-apiserver builds it: the client id as the
 * only audience; the username claim prefixed with `<issuer>#` unless it is `email` or a prefix
 * is given (`-`: none); the groups claim with its prefix; each required claim as a claim rule;
 * the CA file's contents as the certificate authority.
 * @throws Error `open <file>: ...` when the CA file cannot be read.
 */
export async function jwtAuthenticatorFromOidcOptions(o: OidcOptions): Promise<JwtAuthenticatorConfig> {
  const usernameClaim = o.usernameClaim ?? 'sub';
  let usernamePrefix = o.usernamePrefix ?? '';
  if (usernamePrefix === '' && usernameClaim !== 'email') usernamePrefix = `${o.issuerURL}#`;
  if (usernamePrefix === '-') usernamePrefix = '';
  let certificateAuthority = '';
  if (o.caFile) {
    try {
      certificateAuthority = await readFile(o.caFile, 'utf8');
    } catch (e) {
      throw new Error(readFileErrorText(o.caFile, e), { cause: e });
    }
  }
  const groupsClaim = o.groupsClaim ?? '';
  return {
    issuer: {
      url: o.issuerURL,
      discoveryURL: '',
      certificateAuthority,
      audiences: [o.clientID],
      audienceMatchPolicy: '',
    },
    claimValidationRules: Object.entries(o.requiredClaims ?? {}).map(([claim, requiredValue]) => ({
      claim,
      requiredValue,
      expression: '',
      message: '',
    })),
    claimMappings: {
      username: { claim: usernameClaim, prefix: usernamePrefix, expression: '' },
      groups:
        groupsClaim === ''
          ? { claim: '', prefix: undefined, expression: '' }
          : { claim: groupsClaim, prefix: o.groupsPrefix ?? '', expression: '' },
      uid: { claim: '', expression: '' },
      extra: [],
    },
    userValidationRules: [],
  };
}
