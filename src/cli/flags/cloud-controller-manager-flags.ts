import { readFileSync } from 'node:fs';
import { type ApiDomain, apiDomain } from '../../apis/api-domain.js';
import { decodeCloudControllerManagerConfiguration } from '../../controllermanager/config/decode.js';
import { defaultCloudControllerManagerConfiguration } from '../../controllermanager/config/defaults.js';
import type { CloudControllerManagerConfiguration } from '../../controllermanager/config/types.js';
import { validateCloudControllerManagerConfiguration } from '../../controllermanager/config/validate.js';
import { type SelectableName, selectNames } from '../../controllermanager/controller-selection.js';
import { clientApiDomainFlag } from './client-api-domain-flag.js';
import { FlagParseError, FlagValidationError } from './errors.js';
import { parseFlags } from './flag-parser.js';
import { stringFlag } from './flag-spec.js';
import { formatHelp } from './flag-usage.js';

const COMMAND = 'orch-cloud-controller-manager';

function table() {
  return {
    config: stringFlag({
      name: 'config',
      section: 'Misc',
      usage: 'The CloudControllerManagerConfiguration file (YAML or JSON); every setting is read from it.',
    }),
    kubeconfig: stringFlag({
      name: 'kubeconfig',
      section: 'Misc',
      usage: 'Path to a kubeconfig file with authorization and master location information (overrides the file).',
    }),
    master: stringFlag({
      name: 'master',
      section: 'Misc',
      usage: 'The address of the API server (overrides any value in kubeconfig).',
    }),
    apiDomain: clientApiDomainFlag(),
  };
}

export interface CloudControllerManagerCommandOptions {
  readonly domain: ApiDomain;
  /** The effective configuration (file, then kube's defaults, `--kubeconfig` over it), validated. */
  readonly config: CloudControllerManagerConfiguration;
  readonly enabledControllers: readonly string[];
  readonly master: string;
}

export type LoadedCloudControllerManagerCommandLine =
  | { readonly help: true; readonly usage: string }
  | { readonly help: false; readonly options: CloudControllerManagerCommandOptions };

/** Help text of orch-cloud-controller-manager. */
export function cloudControllerManagerUsage(): string {
  return formatHelp({
    command: COMMAND,
    description:
      'The Orch cloud controller manager runs the cloud-specific control loops (cloud node initialization, and the provider-backed loops leader migration can move here).',
    table: table(),
  });
}

/**
 * Parses an orch-cloud-controller-manager command line: the configuration comes from `--config`
 * (kube's defaults where the file is silent; `CloudProvider.Name` is required, and only
 * `external` is known), `--kubeconfig` and `--master` override the connection. `Controllers`
 * select among `controllers`. Every problem is listed together.
 * @throws FlagParseError, FlagValidationError.
 */
export function loadCloudControllerManagerOptions(
  argv: readonly string[],
  controllers: readonly SelectableName[],
): LoadedCloudControllerManagerCommandLine {
  const parsed = parseFlags(table(), argv);
  if (parsed.help) return { help: true, usage: cloudControllerManagerUsage() };
  if (parsed.args.some((a) => a.length > 0)) {
    throw new FlagParseError(
      'UnexpectedArguments',
      `${JSON.stringify(COMMAND)} does not take any arguments, got ${JSON.stringify(parsed.args)}`,
    );
  }
  const v = parsed.values;
  const domain = apiDomain(v.apiDomain);
  const problems: string[] = [];
  let config = defaultCloudControllerManagerConfiguration(domain);
  if (v.config) {
    try {
      config = decodeCloudControllerManagerConfiguration(readFileSync(v.config, 'utf8'), domain);
    } catch (e) {
      const inner = (e as { problems?: readonly string[] }).problems ?? [(e as Error).message];
      problems.push(...inner.map((p) => `${v.config}: ${p}`));
    }
  }
  if (v.kubeconfig) {
    config = {
      ...config,
      Generic: {
        ...config.Generic,
        ClientConnection: { ...config.Generic.ClientConnection, orchconfig: v.kubeconfig },
      },
    };
  }
  if (problems.length === 0) problems.push(...validateCloudControllerManagerConfiguration(config, { controllers }));
  const selection = selectNames(config.Generic.Controllers, controllers);
  if (problems.length > 0) throw new FlagValidationError([...new Set(problems)]);
  return {
    help: false,
    options: { domain, config, enabledControllers: selection.enabled, master: v.master },
  };
}
