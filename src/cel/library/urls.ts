import type { CelLibrary } from '../cel-library.js';
import { type CelObject, celError, registerFunctions, registerObjectType } from './cel-values.js';
import { type GoURL, GoUrlError, parseRequestURI, parseURL } from './go-url.js';

const URL_TYPE = 'kubernetes.URL';

/** A CEL `kubernetes.URL`: a URL parsed as Go's `url.Parse` does. */
class UrlValue implements CelObject {
  readonly celType = URL_TYPE;
  constructor(readonly url: GoURL) {}

  /** kube compares the reassembled URLs. */
  equals(other: CelObject): boolean {
    return other instanceof UrlValue && this.url.toString() === other.url.toString();
  }
}

function toUrl(s: string): UrlValue {
  try {
    // ParseRequestURI decides what is a URL (an absolute URI or an absolute path, as the
    // OpenAPI `uri` format); Parse then reads it, since only Parse splits off the fragment.
    parseRequestURI(s);
    return new UrlValue(parseURL(s));
  } catch (err) {
    if (err instanceof GoUrlError) throw celError(`URL parse error during conversion from string: ${err.message}`);
    throw err;
  }
}

function isURL(s: string): boolean {
  try {
    parseRequestURI(s);
    return true;
  } catch (err) {
    if (err instanceof GoUrlError) return false;
    throw err;
  }
}

/**
 * kube's `kubernetes.urls` library (urls.go, v1.32): `url(<string>)` (an absolute URI or an
 * absolute path, else `URL parse error during conversion from string: parse "…": …`),
 * `isURL(<string>)`, and on a URL `getScheme()`, `getHost()` (IPv6 in brackets, with the port),
 * `getHostname()` (IPv6 without brackets), `getPort()`, `getEscapedPath()` and `getQuery()`
 * (a map from each key to its values, unescaped). Absent parts read as `''` or `{}`.
 */
export const urlsLibrary: CelLibrary = {
  name: 'kubernetes.urls',
  register(env) {
    registerObjectType(env, URL_TYPE, UrlValue);
    registerFunctions(env, [
      [`url(string): ${URL_TYPE}`, toUrl],
      ['isURL(string): bool', isURL],
      [`${URL_TYPE}.getScheme(): string`, (u: UrlValue) => u.url.getScheme()],
      [`${URL_TYPE}.getHost(): string`, (u: UrlValue) => u.url.getHost()],
      [`${URL_TYPE}.getHostname(): string`, (u: UrlValue) => u.url.hostname()],
      [`${URL_TYPE}.getPort(): string`, (u: UrlValue) => u.url.port()],
      [`${URL_TYPE}.getEscapedPath(): string`, (u: UrlValue) => u.url.escapedPath()],
      [`${URL_TYPE}.getQuery(): map<string, list<string>>`, (u: UrlValue) => u.url.query()],
    ]);
  },
};
