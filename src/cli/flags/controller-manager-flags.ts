import { readFileSync } from 'node:fs';
import { type ApiDomain, apiDomain } from '../../apis/api-domain.js';
import { decodeControllerManagerConfiguration } from '../../controllermanager/config/decode.js';
import { defaultControllerManagerConfiguration } from '../../controllermanager/config/defaults.js';
import {
  ControllerManagerConfigError,
  type OrchControllerManagerConfiguration,
} from '../../controllermanager/config/types.js';
import { validateControllerManagerConfiguration } from '../../controllermanager/config/validate.js';
import {
  canonicalizeSelection,
  type SelectableName,
  selectNames,
} from '../../controllermanager/controller-selection.js';
import {
  defaultLeaderMigrationConfiguration,
  parseLeaderMigrationConfiguration,
} from '../../controllermanager/leader-migration-config.js';
import { commandFlags, type MemberFlag, memberFlags, memberValue } from './controller-manager-flag-table.js';
import { FlagParseError, FlagValidationError } from './errors.js';
import { parseFlags } from './flag-parser.js';
import { formatHelp } from './flag-usage.js';

export const CONTROLLER_MANAGER_COMMAND = 'orch-controller-manager';

/** What the command line needs from the process. */
export interface ControllerManagerFlagDeps {
  /**
   * The controllers this binary runs (name, aliases, default): `Controllers` may name only these.
   * The controller descriptors fit as they are.
   */
  readonly controllers: readonly SelectableName[];
  /** Reads `--config` and `--leader-migration-config` (default: the file as UTF-8). */
  readonly readFile?: (path: string) => string;
}

/** Serving options that are not configuration members (kube's secure serving flags). */
export interface ControllerManagerServingFlags {
  readonly certDir: string;
  readonly tlsCertFile: string;
  readonly tlsPrivateKeyFile: string;
}

/** A loaded command line of orch-controller-manager. */
export interface ControllerManagerCommandOptions {
  readonly domain: ApiDomain;
  /** The effective configuration: file, kube's defaults, then flags; validated. */
  readonly config: OrchControllerManagerConfiguration;
  /** Canonical names of the controllers `Generic.Controllers` enables, in `deps.controllers` order. */
  readonly enabledControllers: readonly string[];
  /** `--config`, when given. */
  readonly configFile?: string;
  /** `--write-config-to`: write `formatEffectiveConfiguration(config, domain)` there and exit 0. */
  readonly writeConfigTo?: string;
  /** `--master`: overrides the server of the client configuration file when set. */
  readonly master: string;
  readonly serving: ControllerManagerServingFlags;
}

export type LoadedControllerManagerCommandLine =
  | { readonly help: true; readonly usage: string }
  | { readonly help: false; readonly options: ControllerManagerCommandOptions };

function flagTable(controllers: readonly SelectableName[]) {
  const base = memberFlags();
  // kube's --controllers help lists the controllers and the ones `*` leaves off.
  const all = controllers.map((c) => c.name).join(', ');
  const off = controllers
    .filter((c) => !c.enabledByDefault)
    .map((c) => c.name)
    .join(', ');
  const usage = `${base.controllers.spec.usage}\nAll controllers: ${all}\nDisabled-by-default controllers: ${off}`;
  const members = { ...base, controllers: { ...base.controllers, spec: { ...base.controllers.spec, usage } } };
  const specs = Object.fromEntries(Object.entries(members).map(([k, f]) => [k, f.spec]));
  return {
    members,
    table: { ...commandFlags(), ...(specs as { [K in keyof typeof members]: (typeof members)[K]['spec'] }) },
  };
}

/** Help text of orch-controller-manager; `controllers` are listed under `--controllers`. */
export function controllerManagerUsage(controllers: readonly SelectableName[]): string {
  return formatHelp({
    command: CONTROLLER_MANAGER_COMMAND,
    description:
      'The Orch controller manager runs the control loops that drive the cluster towards the desired state, through the API server.',
    table: flagTable(controllers).table,
  });
}

/** `obj` with the member at `path` set to `value` (copies along the path). */
function setMember(obj: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return obj;
  const child = obj[head];
  return {
    ...obj,
    [head]: rest.length === 0 ? value : setMember((child ?? {}) as Record<string, unknown>, rest, value),
  };
}

function readOrProblem(
  read: (p: string) => string,
  path: string,
  what: string,
  problems: string[],
): string | undefined {
  try {
    return read(path);
  } catch (e) {
    problems.push(`unable to read ${what} from ${JSON.stringify(path)}: ${(e as Error).message}`);
    return undefined;
  }
}

/**
 * Parses an orch-controller-manager command line (without the program name) into the effective
 * configuration: `--config` (or kube v1.32's defaults when absent), then every configuration
 * flag given on the command line over it (kube-controller-manager's names: `--controllers`,
 * `--leader-elect*`, `--concurrent-*-syncs`, `--secure-port`, ...). With leader migration
 * enabled, `--leader-migration-config` (or `Generic.LeaderMigration` of the file, or kube's
 * default migration) is used. `Controllers` aliases become canonical names. The result is
 * validated against `deps.controllers`.
 *
 * @returns `{ help: true, usage }` for `--help`/`-h`, else the options.
 * @throws FlagParseError for unreadable arguments and FlagValidationError listing every problem
 *   of the file, the flags and the effective configuration (the CLI prints it and exits 1).
 */
export function loadControllerManagerOptions(
  argv: readonly string[],
  deps: ControllerManagerFlagDeps,
): LoadedControllerManagerCommandLine {
  const { members, table } = flagTable(deps.controllers);
  const parsed = parseFlags(table, argv);
  if (parsed.help) return { help: true, usage: controllerManagerUsage(deps.controllers) };
  if (parsed.args.some((a) => a.length > 0)) {
    throw new FlagParseError(
      'UnexpectedArguments',
      `${JSON.stringify(CONTROLLER_MANAGER_COMMAND)} does not take any arguments, got ${JSON.stringify(parsed.args)}`,
    );
  }
  const v = parsed.values;
  const domain = apiDomain(v.apiDomain);
  const read = deps.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const problems: string[] = [];

  let config: OrchControllerManagerConfiguration = defaultControllerManagerConfiguration(domain);
  if (v.config !== '') {
    const text = readOrProblem(read, v.config, 'config file', problems);
    if (text === undefined) throw new FlagValidationError(problems);
    try {
      config = decodeControllerManagerConfiguration(text, domain);
    } catch (e) {
      if (!(e instanceof ControllerManagerConfigError)) throw e;
      throw new FlagValidationError(
        e.problems.map((p) => `${v.config}: ${p}`),
        { cause: e },
      );
    }
  }

  let raw = config as unknown as Record<string, unknown>;
  for (const [key, flag] of Object.entries(members) as [string, MemberFlag<unknown>][]) {
    if (parsed.changed.has(key as keyof typeof table & string)) {
      raw = setMember(raw, flag.member, memberValue(flag, (v as Record<string, unknown>)[key]));
    }
  }
  config = raw as unknown as OrchControllerManagerConfiguration;

  let generic = { ...config.Generic, Controllers: canonicalizeSelection(config.Generic.Controllers, deps.controllers) };
  if (generic.LeaderMigrationEnabled) {
    // kube's default migration unless a file says otherwise; also the stand-in when the file is
    // unusable (its problems are reported; the rest is still validated without derived ones).
    let migration = defaultLeaderMigrationConfiguration();
    if (v.leaderMigrationConfig !== '') {
      const text = readOrProblem(read, v.leaderMigrationConfig, 'leader migration configuration', problems);
      try {
        if (text !== undefined) migration = parseLeaderMigrationConfiguration(text, domain);
      } catch (e) {
        if (!(e instanceof ControllerManagerConfigError)) throw e;
        problems.push(
          ...e.problems.map((p) => `failed to parse leader migration configuration: ${v.leaderMigrationConfig}: ${p}`),
        );
      }
      generic = { ...generic, LeaderMigration: migration };
    } else if (generic.LeaderMigration.leaderName === '' && generic.LeaderMigration.controllerLeaders.length === 0) {
      generic = { ...generic, LeaderMigration: migration };
    }
  }
  config = { ...config, Generic: generic };

  if ((v.tlsCertFile === '') !== (v.tlsPrivateKeyFile === '')) {
    problems.push('--tls-cert-file and --tls-private-key-file must be specified together');
  }
  problems.push(...validateControllerManagerConfiguration(config, { controllers: deps.controllers }));
  if (problems.length > 0) throw new FlagValidationError(problems);
  return {
    help: false,
    options: {
      domain,
      config,
      enabledControllers: selectNames(config.Generic.Controllers, deps.controllers).enabled,
      configFile: v.config || undefined,
      writeConfigTo: v.writeConfigTo || undefined,
      master: v.master,
      serving: { certDir: v.certDir, tlsCertFile: v.tlsCertFile, tlsPrivateKeyFile: v.tlsPrivateKeyFile },
    },
  };
}
