import type { VersionedLibrary } from '../base-environment.js';
import type { CelLibrary } from '../cel-library.js';
import { celVersion } from '../version.js';
import { type AuthzLibraryOptions, authzLibrary } from './authz.js';
import { cidrLibrary } from './cidr.js';
import { formatLibrary } from './format.js';
import { ipLibrary } from './ip.js';
import { listsLibrary } from './lists.js';
import { quantityLibrary } from './quantity.js';
import { regexLibrary } from './regex.js';
import { semverLibrary } from './semver.js';
import { setsLibrary } from './sets.js';
import { stringsLibrary } from './strings.js';
import { urlsLibrary } from './urls.js';

export { AUTHORIZER_TYPE, authorizerValue, type CelAuthorize } from './authz.js';

/** Which optional libraries to include. */
export interface CelLibrariesOptions extends AuthzLibraryOptions {
  /**
   * Adds `kubernetes.Semver`. kube-apiserver v1.32 has it only in the DRA device-selector
   * environment; its base environment gains it in v1.33.
   */
  readonly semver?: boolean;
}

/**
 * The function libraries of kube-apiserver v1.32's base CEL environment, in kube's order:
 * URLs, regex, lists, authorizer (with the selector functions when `authorizeWithSelectors`),
 * quantity, strings (cel-go ext version 2), sets, IP, CIDR, format. Each call makes fresh
 * libraries (the regex library caches compiled patterns per environment). Not included:
 * cel-go's two-variable comprehensions, which v1.32 also enables.
 */
export function celLibraries(options: CelLibrariesOptions = {}): CelLibrary[] {
  return [
    urlsLibrary,
    regexLibrary(),
    listsLibrary,
    authzLibrary(options),
    quantityLibrary,
    stringsLibrary,
    setsLibrary,
    ipLibrary,
    cidrLibrary,
    formatLibrary,
    ...(options.semver === true ? [semverLibrary] : []),
  ];
}

/**
 * The same libraries with the compatibility versions kube-apiserver introduced them at (its
 * `MustBaseEnvSet`): URLs, regex and lists from the start; authorizer 1.27; quantity and sets
 * 1.28; strings (version 2) 1.29; IP and CIDR 1.30; format 1.31. An expression written for an
 * older compatibility version cannot use a newer library; a stored one always can.
 */
export function versionedCelLibraries(options: CelLibrariesOptions = {}): VersionedLibrary[] {
  const since: Readonly<Record<string, [number, number]>> = {
    'kubernetes.urls': [1, 0],
    'kubernetes.regex': [1, 0],
    'kubernetes.lists': [1, 0],
    'kubernetes.authz': [1, 27],
    'kubernetes.quantity': [1, 28],
    'cel.lib.ext.sets': [1, 28],
    'cel.lib.ext.strings': [1, 29],
    'kubernetes.net.ip': [1, 30],
    'kubernetes.net.cidr': [1, 30],
    'kubernetes.format': [1, 31],
  };
  return celLibraries(options).map((library) => {
    const [major, minor] = since[library.name] ?? [1, 0];
    return { library, introducedVersion: celVersion(major, minor) };
  });
}
