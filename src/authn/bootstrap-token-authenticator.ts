import { timingSafeEqual } from 'node:crypto';
import type { ApiDomain } from '../apis/api-domain.js';
import type { ApiObject } from '../apis/object.js';
import { type Clock, systemClock } from '../util/clock.js';
import type { ObjectReader } from './object-reader.js';
import { TOKEN_NO_OPINION, type TokenAuthenticator, type TokenAuthResult } from './token-authenticator.js';

/** `<token id>.<token secret>`. */
const TOKEN_PATTERN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
/** What every `auth-extra-groups` entry must match (kube's `ValidateBootstrapGroupName`). */
const GROUP_PATTERN = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
/** Go's `time.RFC3339` layout (fraction optional, zone `Z` or `±hh:mm`). */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export const BOOTSTRAP_SECRET_PREFIX = 'bootstrap-token-';
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';

const SECRETS = { group: '', version: 'v1', resource: 'secrets' } as const;

export interface BootstrapTokenOptions {
  /** Names the system namespace and the secret type (`bootstrap.<domain>/token`). */
  readonly domain: ApiDomain;
  readonly objects: ObjectReader;
  readonly clock?: Clock;
}

/** A `data` value of a Secret, decoded; empty when absent or not base64 text. */
function dataOf(secret: ApiObject, key: string): string {
  const data = secret.data;
  if (typeof data !== 'object' || data === null) return '';
  const v = (data as Record<string, unknown>)[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

/** True when `expiration` is set and not in the future, or cannot be read (kube treats that as expired). */
export function bootstrapTokenExpired(expiration: string, now: Date): boolean {
  if (expiration === '') return false;
  const m = RFC3339.exec(expiration);
  if (!m) return true;
  const t = Date.parse(expiration.toUpperCase());
  if (Number.isNaN(t)) return true;
  return t - now.getTime() <= 0;
}

/**
 * The groups of a bootstrap token: `system:bootstrappers` plus every `auth-extra-groups` entry,
 * deduplicated and sorted; or the problem with the first invalid entry.
 */
export function bootstrapTokenGroups(extraGroups: string): string[] | { readonly error: string } {
  const groups = new Set([BOOTSTRAP_DEFAULT_GROUP]);
  if (extraGroups !== '') {
    for (const g of extraGroups.split(',')) {
      if (!GROUP_PATTERN.test(g)) {
        return { error: `bootstrap group ${JSON.stringify(g)} is invalid (must match ${GROUP_PATTERN.source})` };
      }
      groups.add(g);
    }
  }
  return [...groups].sort();
}

/**
 * Bootstrap tokens (`--enable-bootstrap-token-auth`), as kube-apiserver checks them: the token
 * `<id>.<secret>` names the Secret `bootstrap-token-<id>` in the system namespace, which must be of
 * the bootstrap token type, not being deleted, hold the same `token-id` and (compared in constant
 * time) `token-secret`, not be expired, and have `usage-bootstrap-authentication=true`; its
 * `auth-extra-groups` must all be valid. The user is `system:bootstrap:<id>` in
 * `system:bootstrappers` and the extra groups. Every failed check is `no-opinion` (another method
 * may know the token; in the end the request gets 401); only a failed read is an `error`.
 * Secrets are read from the watch cache on each call. Wrap it in `audienceAgnostic`.
 */
export function bootstrapTokenAuthenticator(options: BootstrapTokenOptions): TokenAuthenticator {
  const clock = options.clock ?? systemClock;
  const namespace = options.domain.systemNamespace;
  const secretType = options.domain.key('bootstrap', 'token');
  return {
    async authenticateToken(token, ctx): Promise<TokenAuthResult> {
      const m = TOKEN_PATTERN.exec(token);
      if (!m) return TOKEN_NO_OPINION;
      const [, id, secretPart] = m as unknown as [string, string, string];
      let secret: ApiObject | undefined;
      try {
        secret = await options.objects.get(SECRETS, namespace, BOOTSTRAP_SECRET_PREFIX + id, ctx.signal);
      } catch (e) {
        return { kind: 'error', message: `reading bootstrap token secret: ${(e as Error).message}` };
      }
      if (secret === undefined) return TOKEN_NO_OPINION;
      if (secret.metadata.deletionTimestamp) return TOKEN_NO_OPINION;
      if (secret.type !== secretType || typeof secret.data !== 'object' || secret.data === null)
        return TOKEN_NO_OPINION;
      const stored = Buffer.from(dataOf(secret, 'token-secret'), 'utf8');
      const given = Buffer.from(secretPart, 'utf8');
      // The token's secret is always 16 characters, so comparing lengths first reveals nothing.
      const same = stored.length === given.length && timingSafeEqual(stored, given);
      if (!same) return TOKEN_NO_OPINION;
      if (dataOf(secret, 'token-id') !== id) return TOKEN_NO_OPINION;
      if (bootstrapTokenExpired(dataOf(secret, 'expiration'), clock.now())) return TOKEN_NO_OPINION;
      if (dataOf(secret, 'usage-bootstrap-authentication') !== 'true') return TOKEN_NO_OPINION;
      const groups = bootstrapTokenGroups(dataOf(secret, 'auth-extra-groups'));
      if (!Array.isArray(groups)) return TOKEN_NO_OPINION;
      return {
        kind: 'user',
        user: Object.freeze({ name: BOOTSTRAP_USER_PREFIX + id, groups: Object.freeze(groups) }),
      };
    },
  } satisfies TokenAuthenticator;
}
