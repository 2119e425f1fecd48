import { writeFileSync } from 'node:fs';
import { formatEffectiveConfiguration } from '../controllermanager/config/print.js';
import type { SelectableName } from '../controllermanager/controller-selection.js';
import {
  type ControllerManagerCommandOptions,
  loadControllerManagerOptions,
} from './flags/controller-manager-flags.js';
import { FlagError } from './flags/errors.js';

/** What the command needs besides its arguments. */
export interface ControllerManagerCommandDeps {
  /** The controllers this binary runs (descriptors fit). */
  readonly controllers: readonly SelectableName[];
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Runs the controller manager with the loaded options; resolves to the exit code. */
  readonly run?: (options: ControllerManagerCommandOptions) => Promise<number>;
}

/**
 * `orch-controller-manager`: loads the command line; `--help` prints usage (0); an invalid command
 * line prints `Error: <problems>` (1); `--write-config-to` writes the effective configuration and
 * exits 0 without running; otherwise `deps.run` runs the process.
 */
export async function controllerManagerMain(
  argv: readonly string[],
  deps: ControllerManagerCommandDeps,
): Promise<number> {
  let loaded: ReturnType<typeof loadControllerManagerOptions>;
  try {
    loaded = loadControllerManagerOptions(argv, { controllers: deps.controllers });
  } catch (e) {
    if (e instanceof FlagError) {
      deps.stderr(`Error: ${e.message.split('\n').join('; ')}\n`);
      return 1;
    }
    throw e;
  }
  if (loaded.help) {
    deps.stdout(loaded.usage);
    return 0;
  }
  const { options } = loaded;
  if (options.writeConfigTo) {
    try {
      writeFileSync(options.writeConfigTo, formatEffectiveConfiguration(options.config, options.domain));
    } catch (e) {
      deps.stderr(
        `Error: unable to write the configuration to ${JSON.stringify(options.writeConfigTo)}: ${(e as Error).message}\n`,
      );
      return 1;
    }
    deps.stdout(`Wrote configuration to: ${options.writeConfigTo}\n`);
    return 0;
  }
  if (!deps.run) {
    deps.stderr('Error: this build of orch-controller-manager cannot run controllers\n');
    return 1;
  }
  return deps.run(options);
}
