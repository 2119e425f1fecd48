/** The parts of a URL that authentication configuration checks, split as Go's `url.Parse` would. */
export interface GoUrlParts {
  readonly scheme: string;
  readonly hasUser: boolean;
  readonly rawQuery: string;
  readonly fragment: string;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/**
 * Splits `raw` as Go's `url.Parse` does for the checks of issuer and discovery URLs, or returns
 * Go's error text (`parse "…": missing protocol scheme`, `… invalid control character in URL`).
 */
export function parseGoUrl(raw: string): GoUrlParts | { readonly error: string } {
  const quoted = JSON.stringify(raw);
  if ([...raw].some((c) => (c.codePointAt(0) as number) < 0x20 || c === '\u007f'))
    return { error: `parse ${quoted}: net/url: invalid control character in URL` };
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash !== -1) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  if (rest.startsWith(':')) return { error: `parse ${quoted}: missing protocol scheme` };
  const m = SCHEME.exec(rest);
  const scheme = m ? (m[1] as string).toLowerCase() : '';
  if (m) rest = rest.slice(m[0].length);
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q !== -1) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let hasUser = false;
  if (rest.startsWith('//')) {
    const authority = rest.slice(2).split('/')[0] as string;
    hasUser = authority.includes('@');
  }
  return { scheme, hasUser, rawQuery, fragment };
}
