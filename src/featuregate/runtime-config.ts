import { parseGoBool, RuntimeConfigError } from './errors.js';

/** Which group versions exist, for {@link RuntimeConfig.validate}. The core group is `''`. */
export interface GroupVersionRegistry {
  isGroupRegistered(group: string): boolean;
  isVersionRegistered(group: string, version: string): boolean;
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
const CORE_VERSION_KEY = /^v\d+((alpha|beta)\d+)?$/;

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
 * else. The core group is addressed as `v1` or, with its empty group name, `/v1`. Precedence, highest first:
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
    const rc = new RuntimeConfig({ ...entries }, defaults);
    const problems: string[] = [];
    for (const [key, value] of Object.entries(entries)) {
      if (MATCHER_KEYS.has(key)) {
        if (value === '' || value === 'true') rc.#matchers.set(key, true);
        else if (value === 'false') rc.#matchers.set(key, false);
        else problems.push(`invalid value ${key}=${value}`);
        continue;
      }
      // kube documents `v1=true|false` for the core group; `/v1` (empty group) means the same.
      const tokens = CORE_VERSION_KEY.test(key) ? ['', key] : key.split('/');
      if (tokens.length !== 2 && tokens.length !== 3) {
        problems.push(`runtime-config invalid key ${key}`);
        continue;
      }
      const [group, version, resource] = tokens;
      if (version === '' || resource === '') {
        problems.push(`runtime-config invalid key ${key}`);
        continue;
      }
      let enabled = true;
      if (value !== '') {
        const parsed = parseGoBool(value);
        if (typeof parsed !== 'boolean') {
          problems.push(`invalid value of ${key}: ${value}, err: ${parsed.error}`);
          continue;
        }
        enabled = parsed;
      }
      if (!rc.#groups.includes(group)) rc.#groups.push(group);
      if (resource === undefined) {
        rc.#versions.set(gvKey(group, version), enabled);
      } else if (resource.toLowerCase() !== resource) {
        problems.push(
          `invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(resource)}`,
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
   * alone is rejected, unknown groups are listed, and a known group with an unknown version fails.
   * @throws RuntimeConfigError listing every problem.
   */
  validate(registry: GroupVersionRegistry): void {
    const keys = Object.keys(this.entries);
    if (keys.length === 1 && this.#matchers.get('api/all') === false) {
      throw new RuntimeConfigError(['invalid key with only api/all=false']);
    }
    const problems: string[] = [];
    const unknown = this.#groups.filter((g) => !registry.isGroupRegistered(g));
    if (unknown.length > 0) problems.push(`unknown api groups ${unknown.join(',')}`);
    const versionKeys = [
      ...this.#versions.keys(),
      ...[...this.#resources.keys()].map((k) => k.slice(0, k.lastIndexOf('/'))),
    ];
    for (const gv of new Set(versionKeys)) {
      const slash = gv.indexOf('/');
      const group = gv.slice(0, slash);
      const version = gv.slice(slash + 1);
      if (registry.isGroupRegistered(group) && !registry.isVersionRegistered(group, version)) {
        problems.push(`group version ${group ? gv : version} that has not been registered`);
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
