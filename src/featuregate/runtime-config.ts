import { parseGoBool, RuntimeConfigError } from './errors.js';

/** Which group versions and resources exist, for {@link RuntimeConfig.validate}. The core group is `''`. */
export interface GroupVersionRegistry {
  isGroupRegistered(group: string): boolean;
  isVersionRegistered(group: string, version: string): boolean;
  isResourceRegistered(group: string, version: string, resource: string): boolean;
}

/** One served resource as `--runtime-config` addresses it; the core group is `''`. */
export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  /** Lowercase plural, e.g. `leases`. */
  readonly resource: string;
}

/** A {@link GroupVersionRegistry} over a list of served resources (e.g. the built-in definitions). */
export function groupVersionRegistry(served: readonly GroupVersionResource[]): GroupVersionRegistry {
  const groups = new Set(served.map((r) => r.group));
  const versions = new Set(served.map((r) => gvKey(r.group, r.version)));
  const resources = new Set(served.map((r) => `${gvKey(r.group, r.version)}/${r.resource}`));
  return {
    isGroupRegistered: (group) => groups.has(group),
    isVersionRegistered: (group, version) => versions.has(gvKey(group, version)),
    isResourceRegistered: (group, version, resource) => resources.has(`${gvKey(group, version)}/${resource}`),
  };
}

/**
 * Enablement before `--runtime-config` applies. `resourceEnabled` may pin single resources
 * (undefined = follow the version); version-level settings from the flag override such pins.
 */
export interface RuntimeConfigDefaults {
  versionEnabled(group: string, version: string): boolean;
  resourceEnabled?(group: string, version: string, resource: string): boolean | undefined;
}

const GA = /^v\d+$/;
const BETA = /^v\d+beta\d+$/;
const ALPHA = /^v\d+alpha\d+$/;

/**
 * kube-apiserver's legacy spellings of the core group: `v1` and `api/v1`, alone or before
 * `/<resource>`, mean `/v1`; `api/legacy` is accepted and ignored. Returns the key to parse, or
 * undefined to drop it.
 */
function canonicalKey(key: string): string | undefined {
  if (key === 'api/legacy') return undefined;
  for (const legacy of ['api/v1', 'v1']) {
    if (key === legacy) return '/v1';
    if (key.startsWith(`${legacy}/`)) return `/v1/${key.slice(legacy.length + 1)}`;
  }
  return key;
}

/** Keys that address many versions at once, applied in this order so later ones win. */
const MATCHERS: readonly (readonly [string, (version: string) => boolean])[] = [
  ['api/all', () => true],
  ['api/ga', (v) => GA.test(v)],
  ['api/beta', (v) => BETA.test(v)],
  ['api/alpha', (v) => ALPHA.test(v)],
];
const MATCHER_KEYS = new Set(MATCHERS.map(([k]) => k));

/** The spec's default: stable versions are served, alpha and beta versions are not. */
export const defaultRuntimeConfigDefaults: RuntimeConfigDefaults = {
  versionEnabled: (_group, version) => GA.test(version),
};

function gvKey(group: string, version: string): string {
  return `${group}/${version}`;
}

/**
 * The parsed `--runtime-config`: which API group versions and resources are served.
 *
 * Keys (kube semantics): `api/all`, `api/ga`, `api/beta`, `api/alpha` switch every matching
 * version (value `true` or `false`; a bare key means `true`); `<group>/<version>[=bool]` switches
 * one version; `<group>/<version>/<resource>[=bool]` switches one resource and beats everything
 * else. The core group is addressed as `/v1` (its empty group name), `v1` or `api/v1`; `api/legacy`
 * is accepted and ignored, as kube-apiserver does. Precedence, highest first:
 * resource key, version key, the last matching `api/*` key in the order all, ga, beta, alpha,
 * then the defaults.
 */
export class RuntimeConfig {
  readonly #matchers = new Map<string, boolean>();
  readonly #versions = new Map<string, boolean>();
  readonly #resources = new Map<string, boolean>();
  readonly #groups: string[] = [];

  private constructor(
    readonly entries: Readonly<Record<string, string>>,
    readonly defaults: RuntimeConfigDefaults,
  ) {}

  /**
   * Parses one or more `--runtime-config` values (comma-separated `key[=value]`, trimmed, blank
   * items skipped; later keys override earlier ones).
   * @throws RuntimeConfigError listing every malformed key or value.
   */
  static parse(value: string | readonly string[], defaults?: RuntimeConfigDefaults): RuntimeConfig {
    const entries: Record<string, string> = {};
    for (const v of typeof value === 'string' ? [value] : value) {
      for (const item of v.split(',')) {
        if (item.trim() === '') continue;
        const eq = item.indexOf('=');
        if (eq < 0) entries[item.trim()] = '';
        else entries[item.slice(0, eq).trim()] = item.slice(eq + 1).trim();
      }
    }
    return RuntimeConfig.fromEntries(entries, defaults);
  }

  /**
   * Builds from `key → value` pairs, where an empty value means `true`.
   * @throws RuntimeConfigError listing every malformed key or value.
   */
  static fromEntries(
    entries: Readonly<Record<string, string>>,
    defaults = defaultRuntimeConfigDefaults,
  ): RuntimeConfig {
    const canonical: Record<string, string> = {};
    const written = new Map<string, string>();
    for (const [key, value] of Object.entries(entries)) {
      const k = canonicalKey(key);
      if (k === undefined) continue;
      canonical[k] = value;
      written.set(k, key);
    }
    const rc = new RuntimeConfig(canonical, defaults);
    const problems: string[] = [];
    for (const [key, value] of Object.entries(canonical)) {
      // Messages name the key as the user wrote it.
      const asWritten = written.get(key) ?? key;
      if (MATCHER_KEYS.has(key)) {
        if (value === '' || value === 'true') rc.#matchers.set(key, true);
        else if (value === 'false') rc.#matchers.set(key, false);
        else problems.push(`invalid value ${asWritten}=${value}`);
        continue;
      }
      const tokens = key.split('/');
      if (tokens.length !== 2 && tokens.length !== 3) {
        problems.push(`runtime-config invalid key ${asWritten}`);
        continue;
      }
      const [group, version, resource] = tokens;
      if (version === '' || resource === '') {
        problems.push(`runtime-config invalid key ${asWritten}`);
        continue;
      }
      let enabled = true;
      if (value !== '') {
        const parsed = parseGoBool(value);
        if (typeof parsed !== 'boolean') {
          problems.push(`invalid value of ${asWritten}: ${value}, err: ${parsed.error}`);
          continue;
        }
        enabled = parsed;
      }
      if (!rc.#groups.includes(group)) rc.#groups.push(group);
      if (resource === undefined) {
        rc.#versions.set(gvKey(group, version), enabled);
      } else if (resource.toLowerCase() !== resource) {
        problems.push(
          `invalid key ${asWritten}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(resource)}`,
        );
      } else {
        rc.#resources.set(`${gvKey(group, version)}/${resource}`, enabled);
      }
    }
    if (problems.length > 0) throw new RuntimeConfigError(problems);
    return rc;
  }

  /** A configuration with no overrides. */
  static empty(defaults = defaultRuntimeConfigDefaults): RuntimeConfig {
    return new RuntimeConfig({}, defaults);
  }

  /**
   * Whether `group/version` is enabled, or, with `resource`, whether that resource of it is served.
   * A resource enabled by its own key is served even when its version is otherwise off.
   */
  isEnabled(group: string, version: string, resource?: string): boolean {
    const gv = gvKey(group, version);
    if (resource !== undefined) {
      const pinned = this.#resources.get(`${gv}/${resource}`);
      if (pinned !== undefined) return pinned;
    }
    // A version-level choice from the flag replaces any per-resource default of that version.
    const fromFlag = this.#versions.get(gv) ?? this.#matcherValue(version);
    if (fromFlag !== undefined) return fromFlag;
    if (resource !== undefined) {
      const pinned = this.defaults.resourceEnabled?.(group, version, resource);
      if (pinned !== undefined) return pinned;
    }
    return this.defaults.versionEnabled(group, version);
  }

  /** Resources of `group/version` enabled by their own key, for serving a version that is otherwise off. */
  explicitlyEnabledResources(group: string, version: string): string[] {
    const prefix = `${gvKey(group, version)}/`;
    const out: string[] = [];
    for (const [key, enabled] of this.#resources) {
      if (enabled && key.startsWith(prefix)) out.push(key.slice(prefix.length));
    }
    return out;
  }

  /**
   * Checks the keys against what the server serves, as kube-apiserver does at start-up: `api/all=false`
   * alone is rejected, then unknown groups are listed (`unknown api groups a,b`, the core group
   * by its empty name); only when every group is known, a version the group does not serve fails
   * (`group version <g>/<v> that has not been registered`), and then a resource key naming a
   * resource that version does not serve.
   * @throws RuntimeConfigError listing every problem of the first failing check.
   */
  validate(registry: GroupVersionRegistry): void {
    const keys = Object.keys(this.entries);
    if (keys.length === 1 && this.#matchers.get('api/all') === false) {
      throw new RuntimeConfigError(['invalid key with only api/all=false']);
    }
    const unknown = this.#groups.filter((g) => !registry.isGroupRegistered(g));
    if (unknown.length > 0) throw new RuntimeConfigError([`unknown api groups ${unknown.join(',')}`]);
    const resourceKeys = [...this.#resources.keys()].map((k) => {
      const slash = k.lastIndexOf('/');
      return { gv: k.slice(0, slash), resource: k.slice(slash + 1) };
    });
    const problems: string[] = [];
    for (const gv of new Set([...this.#versions.keys(), ...resourceKeys.map((r) => r.gv)])) {
      const [group, version] = splitGv(gv);
      if (!registry.isVersionRegistered(group, version)) {
        problems.push(`group version ${displayGv(group, version)} that has not been registered`);
      }
    }
    if (problems.length > 0) throw new RuntimeConfigError(problems);
    for (const { gv, resource } of resourceKeys) {
      const [group, version] = splitGv(gv);
      if (!registry.isResourceRegistered(group, version, resource)) {
        problems.push(
          `resource ${resource} of group version ${displayGv(group, version)} that has not been registered`,
        );
      }
    }
    if (problems.length > 0) throw new RuntimeConfigError(problems);
  }

  #matcherValue(version: string): boolean | undefined {
    let value: boolean | undefined;
    for (const [key, matches] of MATCHERS) {
      const setting = this.#matchers.get(key);
      if (setting !== undefined && matches(version)) value = setting;
    }
    return value;
  }
}

function splitGv(gv: string): [group: string, version: string] {
  const slash = gv.indexOf('/');
  return [gv.slice(0, slash), gv.slice(slash + 1)];
}

/** A group version as kube prints `schema.GroupVersion`: the core group's as its bare version. */
function displayGv(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}
