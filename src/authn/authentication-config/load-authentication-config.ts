import { readFile } from 'node:fs/promises';
import type { ApiDomain } from '../../apis/api-domain.js';
import { AuthenticationConfigError, invalidConfigurationError } from './authentication-config-error.js';
import type { CompiledJwtAuthenticator } from './compiled-jwt-authenticator.js';
import { decodeAuthenticationConfiguration } from './decode-authentication-config.js';
import type { AuthenticationConfiguration } from './types.js';
import { type ConfigValidationContext, validateAuthenticationConfiguration } from './validate-authentication-config.js';

/** A configuration file's text, decoded, validated and compiled. */
export interface LoadedAuthenticationConfig {
  readonly data: string;
  readonly config: AuthenticationConfiguration;
  readonly authenticators: readonly CompiledJwtAuthenticator[];
}

/** Go's text of a failed `os.ReadFile`: `open <path>: no such file or directory`. */
export function readFileErrorText(path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const reason: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'is a directory',
  };
  if (code === 'EISDIR') return `read ${path}: is a directory`;
  if (code !== undefined && reason[code] !== undefined) return `open ${path}: ${reason[code]}`;
  return `open ${path}: ${e instanceof Error ? e.message : String(e)}`;
}

/** Reads the file as text. @throws AuthenticationConfigError `failed to load authentication configuration from file ...` */
export async function readAuthenticationConfigFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new AuthenticationConfigError(
      [`failed to load authentication configuration from file ${JSON.stringify(path)}: ${readFileErrorText(path, e)}`],
      { cause: e },
    );
  }
}

/**
 * Decodes `data` (the file at `path`) and validates it (compiling its expressions).
 * @throws AuthenticationConfigError: `failed to load authentication configuration from file "<path>": <why>`
 *   when it does not decode, `invalid authentication configuration: <every problem>` when it is invalid.
 */
export function parseAuthenticationConfig(
  path: string,
  data: string,
  domain: ApiDomain,
  ctx: ConfigValidationContext,
  /** Checks the decoded configuration before validation (kube: the `--anonymous-auth` exclusion); may throw. */
  beforeValidation?: (config: AuthenticationConfiguration) => void,
): LoadedAuthenticationConfig {
  let config: AuthenticationConfiguration;
  try {
    config = decodeAuthenticationConfiguration(data, domain);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new AuthenticationConfigError(
      [`failed to load authentication configuration from file ${JSON.stringify(path)}: ${why}`],
      { cause: e },
    );
  }
  beforeValidation?.(config);
  const validated = validateAuthenticationConfiguration(config, ctx);
  if (validated.errors.length > 0) throw invalidConfigurationError(validated.errors);
  return { data, config, authenticators: validated.authenticators };
}
