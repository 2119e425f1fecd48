import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CsvParseError, readGoCsv } from '../util/go-csv.js';
import type { Logger } from '../util/logger.js';
import { AuthenticationConfigError } from './authentication-config-error.js';
import type { UserInfo } from './authenticator.js';
import { TOKEN_NO_OPINION, type TokenAuthenticator, type TokenAuthResult } from './token-authenticator.js';

/** One usable line of a token file. */
export interface StaticTokenEntry {
  readonly token: string;
  readonly user: UserInfo;
  /** 1-based line the record starts on. */
  readonly line: number;
}

/**
 * Reads the records of a `--token-auth-file` (CSV: token, user name, uid, then optionally one
 * column of comma-separated groups; further columns are ignored), as kube-apiserver does: a record
 * with fewer than 3 columns or unreadable CSV fails (naming the line); a record with an empty token
 * is skipped with a warning; a repeated token warns and the later record wins.
 * `path` only names the file in messages and warnings.
 * @throws AuthenticationConfigError on a malformed record (the message never contains a token).
 */
export function parseTokenFile(text: string, path: string, logger?: Logger): StaticTokenEntry[] {
  let records: ReturnType<typeof readGoCsv>;
  try {
    records = readGoCsv(text);
  } catch (e) {
    if (e instanceof CsvParseError) throw new AuthenticationConfigError([`token file '${path}': ${e.message}`]);
    throw e;
  }
  const byToken = new Map<string, StaticTokenEntry>();
  let recordNum = 0;
  for (const { line, fields } of records) {
    if (fields.length < 3) {
      throw new AuthenticationConfigError([
        `token file '${path}' must have at least 3 columns (token, user name, user uid), found ${fields.length} on line ${line}`,
      ]);
    }
    recordNum++;
    const [token, name, uid] = fields as [string, string, string];
    if (token === '') {
      logger?.warn(`empty token has been found in token file '${path}', record number '${recordNum}'`);
      continue;
    }
    if (name === '') {
      throw new AuthenticationConfigError([`token file '${path}': empty user name on line ${line}`]);
    }
    if (byToken.has(token)) {
      logger?.warn(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
      byToken.delete(token);
    }
    const user: UserInfo = Object.freeze({
      name,
      uid,
      groups: Object.freeze(fields.length >= 4 ? (fields[3] as string).split(',') : []),
    });
    byToken.set(token, { token, user, line });
  }
  return [...byToken.values()];
}

const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * Authenticates the tokens of a static token file. Tokens are kept only as SHA-256 digests, looked
 * up by digest and confirmed with `timingSafeEqual`: how long a lookup takes depends on the digest
 * of a guess, which says nothing about how much of a real token it matches, and costs the same for
 * ten tokens or ten thousand. An unknown token is `no-opinion`. Wrap it in `audienceAgnostic`:
 * these tokens carry no audience.
 */
export function staticTokenAuthenticator(entries: readonly StaticTokenEntry[]): TokenAuthenticator {
  const table = new Map<string, { readonly digest: Buffer; readonly result: TokenAuthResult }>();
  for (const e of entries) {
    const d = digest(e.token);
    table.set(d.toString('base64'), { digest: d, result: Object.freeze({ kind: 'user' as const, user: e.user }) });
  }
  return {
    authenticateToken(token) {
      const d = digest(token);
      const entry = table.get(d.toString('base64'));
      return entry !== undefined && timingSafeEqual(entry.digest, d) ? entry.result : TOKEN_NO_OPINION;
    },
  } satisfies TokenAuthenticator;
}

/**
 * Reads `--token-auth-file` and returns its authenticator; changing the file needs a restart.
 * @throws AuthenticationConfigError when the file cannot be read or has a malformed record.
 */
export async function loadTokenFile(path: string, logger?: Logger): Promise<TokenAuthenticator> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new AuthenticationConfigError([`--token-auth-file: ${(e as Error).message}`], { cause: e });
  }
  return staticTokenAuthenticator(parseTokenFile(text, path, logger));
}
