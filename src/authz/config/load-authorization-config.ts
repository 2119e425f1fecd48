import { readFile } from 'node:fs/promises';
import type { WebhookClientConfig } from '../../util/webhook-client-config.js';
import { loadWebhookClientConfig, WebhookClientConfigError } from '../../util/webhook-client-config.js';
import { AuthorizationConfigError } from '../authorization-config-error.js';
import type { WebhookMatcher } from '../webhook/webhook-authorizer.js';
import { decodeAuthorizationConfiguration } from './decode-authorization-config.js';
import { type AuthorizationConfiguration, configFileField, type WebhookConfiguration } from './types.js';
import {
  type AuthorizationConfigValidationContext,
  validateAuthorizationConfiguration,
} from './validate-authorization-config.js';

/** One authorizer of a loaded configuration; a webhook with its client configuration read and its conditions compiled. */
export interface LoadedAuthorizer {
  readonly type: string;
  readonly name: string;
  readonly webhook?: {
    readonly config: WebhookConfiguration;
    readonly client: WebhookClientConfig;
    readonly matcher: WebhookMatcher | undefined;
  };
}

/** A configuration file's text, decoded, validated and with every file it names read. */
export interface LoadedAuthorizationConfig {
  readonly data: string;
  readonly config: AuthorizationConfiguration;
  readonly authorizers: readonly LoadedAuthorizer[];
}

/** Go's text of a failed `os.ReadFile`: `open <path>: no such file or directory`. */
export function readFileErrorText(path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EISDIR') return `read ${path}: is a directory`;
  const reasons: Record<string, string> = { ENOENT: 'no such file or directory', EACCES: 'permission denied' };
  return `open ${path}: ${(code && reasons[code]) ?? (e instanceof Error ? e.message : String(e))}`;
}

/** Reads the configuration file as text. @throws AuthorizationConfigError `open <path>: ...` */
export async function readAuthorizationConfigFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new AuthorizationConfigError([readFileErrorText(path, e)], { cause: e });
  }
}

/**
 * Decodes `data`, validates it (compiling match conditions) and reads the client configuration
 * of every webhook, as kube-apiserver does before it builds the chain.
 * @throws AuthorizationConfigError: `failed to load AuthorizationConfiguration from file: <why>`
 *   when it does not decode; otherwise every problem (field errors, names, required types, client
 *   configurations), each its own entry of `problems`.
 */
export async function loadAuthorizationConfig(
  data: string,
  ctx: AuthorizationConfigValidationContext,
): Promise<LoadedAuthorizationConfig> {
  let config: AuthorizationConfiguration;
  try {
    config = decodeAuthorizationConfiguration(data, ctx.domain);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new AuthorizationConfigError([`failed to load AuthorizationConfiguration from file: ${why}`], { cause: e });
  }
  const validated = validateAuthorizationConfiguration(config, ctx);
  if (validated.errors.length > 0) throw new AuthorizationConfigError(validated.errors);
  // Per authorizer, so they are reported in the file's order whatever order the loads finish in.
  const problems: string[][] = config.authorizers.map(() => []);
  const field = configFileField(ctx.domain);
  const authorizers = await Promise.all(
    config.authorizers.map(async (a, i): Promise<LoadedAuthorizer> => {
      if (a.webhook === undefined) return { type: a.type, name: a.name };
      const source = `authorizers[${i}].connectionInfo.${field}`;
      try {
        const client = await loadWebhookClientConfig(a.webhook.connectionInfo.configFile as string, source);
        return { type: a.type, name: a.name, webhook: { config: a.webhook, client, matcher: validated.matchers[i] } };
      } catch (e) {
        if (!(e instanceof WebhookClientConfigError)) throw e;
        problems[i]?.push(...e.problems);
        return { type: a.type, name: a.name };
      }
    }),
  );
  const all = problems.flat();
  if (all.length > 0) throw new AuthorizationConfigError(all);
  return { data, config, authorizers };
}
