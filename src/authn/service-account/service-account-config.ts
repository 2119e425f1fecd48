import { readFile } from 'node:fs/promises';
import type { ApiDomain } from '../../apis/api-domain.js';
import { type Clock, systemClock } from '../../util/clock.js';
import type { AuthenticationOptions } from '../authentication-options.js';
import { parsePublicKeys, parseSigningKey, type VerificationKey } from './service-account-keys.js';
import {
  EXPIRATION_EXTENSION_SECONDS,
  ServiceAccountTokenSigner,
  WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS,
} from './token-signer.js';

/** Service-account token settings that cannot work; lists every problem. */
export class ServiceAccountConfigError extends Error {
  override readonly name = 'ServiceAccountConfigError';
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
  }
}

/** The service-account token configuration a server runs with. */
export interface ServiceAccountTokenConfig {
  /** Every accepted issuer; the first signs. */
  readonly issuers: readonly string[];
  readonly signer: ServiceAccountTokenSigner;
  /** Every key that verifies tokens, in flag order. */
  readonly publicKeys: readonly VerificationKey[];
  readonly lookup: boolean;
  /** Seconds; 0 = no cap. */
  readonly maxExpirationSeconds: number;
  readonly extendExpiration: boolean;
  /** Settings that work but probably not as meant (kube-apiserver's start-up warnings). */
  readonly warnings: readonly string[];
}

/** What the server supplies when the flags leave it open. */
export interface ServiceAccountDefaults {
  /** The default issuer: the server's own https URL. */
  readonly issuer: string;
  /** PEM private key of the serving certificate, the default signing and verification key. */
  readonly servingKeyPem: string;
}

const MIN_MAX_EXPIRATION_SECONDS = 60 * 60;

/** Go's `time.Duration` text of whole seconds, e.g. `2h0m0s`. */
function goDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}h${m}m${s}s` : m > 0 ? `${m}m${s}s` : `${s}s`;
}

function expirationWarnings(maxSeconds: number, extend: boolean): string[] {
  if (maxSeconds === 0 || !extend) return [];
  const out: string[] = [];
  if (maxSeconds < WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS) {
    out.push(
      `service-account-extend-token-expiration is true, in order to correctly trigger safe transition logic, service-account-max-token-expiration must be set longer than ${WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS} seconds (currently ${goDuration(maxSeconds)})`,
    );
  }
  if (maxSeconds < EXPIRATION_EXTENSION_SECONDS) {
    out.push(
      `service-account-extend-token-expiration is true, enabling tokens valid up to ${EXPIRATION_EXTENSION_SECONDS} seconds, which is longer than service-account-max-token-expiration set to ${goDuration(maxSeconds)}`,
    );
  }
  return out;
}
const MAX_MAX_EXPIRATION_SECONDS = 2 ** 32;

function readError(path: string, e: unknown): string {
  const code = (e as { code?: string }).code;
  if (code === 'ENOENT') return `open ${path}: no such file or directory`;
  if (code === 'EACCES') return `open ${path}: permission denied`;
  if (code === 'EISDIR') return `read ${path}: is a directory`;
  return e instanceof Error ? e.message : String(e);
}

/** kube-apiserver's checks of `--service-account-issuer` values. */
export function issuerProblems(issuers: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const issuer of issuers) {
    if (issuer.includes(':')) {
      try {
        new URL(issuer);
      } catch {
        problems.push(
          `service-account-issuer "${issuer}" contained a ':' but was not a valid URL: parse "${issuer}": invalid URL`,
        );
        continue;
      }
    }
    if (issuer === '') {
      problems.push('service-account-issuer should not be an empty string');
      continue;
    }
    if (seen.has(issuer)) {
      problems.push(`service-account-issuer "${issuer}" is already specified`);
      continue;
    }
    seen.add(issuer);
  }
  return problems;
}

/**
 * Resolves the service-account options: issuers (default the server's URL), the signing key
 * (default the serving key), the verification keys (default the signing key's public half),
 * lookup (default on), the lifetime cap and the expiration extension (default on).
 * @throws ServiceAccountConfigError listing every problem (unreadable or keyless files, bad issuers,
 *   a cap outside 1 hour to 2^32 seconds).
 */
export async function loadServiceAccountConfig(
  options: AuthenticationOptions,
  defaults: ServiceAccountDefaults,
  deps: { readonly domain: ApiDomain; readonly clock?: Clock },
): Promise<ServiceAccountTokenConfig> {
  const problems: string[] = [];
  const issuers = options.serviceAccountIssuers?.length ? [...options.serviceAccountIssuers] : [defaults.issuer];
  problems.push(...issuerProblems(issuers));

  const maxExpirationSeconds = options.serviceAccountMaxTokenExpirationSeconds ?? 0;
  if (
    maxExpirationSeconds !== 0 &&
    (maxExpirationSeconds < MIN_MAX_EXPIRATION_SECONDS || maxExpirationSeconds > MAX_MAX_EXPIRATION_SECONDS)
  ) {
    problems.push('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  }

  let signingPem = defaults.servingKeyPem;
  let signingSource: string | undefined;
  if (options.serviceAccountSigningKeyFile) {
    signingSource = options.serviceAccountSigningKeyFile;
    try {
      signingPem = await readFile(signingSource, 'utf8');
    } catch (e) {
      problems.push(`failed to parse service-account-issuer-key-file: ${readError(signingSource, e)}`);
      signingPem = '';
    }
  }
  let signingKey: ReturnType<typeof parseSigningKey> | undefined;
  if (signingPem !== '') {
    try {
      signingKey = parseSigningKey(signingPem);
    } catch (e) {
      const what = signingSource === undefined ? 'the serving key' : 'service-account-issuer-key-file';
      problems.push(`failed to parse ${what}: ${(e as Error).message}`);
    }
  }

  const publicKeys: VerificationKey[] = [];
  for (const file of options.serviceAccountKeyFiles ?? []) {
    let data: string;
    try {
      data = await readFile(file, 'utf8');
    } catch (e) {
      problems.push(`failed to parse key file "${file}": ${readError(file, e)}`);
      continue;
    }
    try {
      publicKeys.push(...parsePublicKeys(data));
    } catch (e) {
      problems.push(
        `failed to parse key file "${file}": error reading public key file ${file}: ${(e as Error).message}`,
      );
    }
  }
  if (problems.length > 0 || !signingKey) throw new ServiceAccountConfigError(problems);
  const warnings: string[] = [];
  if ((options.serviceAccountKeyFiles ?? []).length === 0) {
    publicKeys.push({ key: signingKey.key, kid: signingKey.kid, alg: signingKey.alg });
  } else if (!publicKeys.some((k) => k.kid === signingKey.kid)) {
    warnings.push(
      `the service account signing key (kid ${signingKey.kid}) is not among the --service-account-key-file keys: tokens this server issues will not authenticate here`,
    );
  }
  const extendExpiration = options.serviceAccountExtendTokenExpiration ?? true;
  warnings.push(...expirationWarnings(maxExpirationSeconds, extendExpiration));
  const signer = new ServiceAccountTokenSigner({
    issuer: issuers[0] as string,
    key: signingKey,
    claimName: deps.domain.serviceAccountClaim,
    clock: deps.clock ?? systemClock,
  });
  return {
    issuers,
    signer,
    publicKeys,
    lookup: options.serviceAccountLookup ?? true,
    maxExpirationSeconds,
    extendExpiration,
    warnings,
  };
}
