#!/usr/bin/env node
import { controllerManagerProcess } from '../controllermanager/controller-manager-process.js';
import { CLOUD_CONTROLLER_MANAGER_COMPONENT } from '../controllermanager/leader-migration-config.js';
import { cloudControllerManagerControllers } from '../controllers/all-controllers.js';
import { jsonLogger } from '../util/logger.js';
import { loadCloudControllerManagerOptions } from './flags/cloud-controller-manager-flags.js';
import { FlagError } from './flags/errors.js';

/** `orch-cloud-controller-manager`: the command line, then the cloud controllers until SIGTERM. */
async function main(argv: readonly string[]): Promise<number> {
  const controllers = cloudControllerManagerControllers();
  let loaded: ReturnType<typeof loadCloudControllerManagerOptions>;
  try {
    loaded = loadCloudControllerManagerOptions(argv, controllers);
  } catch (e) {
    if (e instanceof FlagError) {
      process.stderr.write(`Error: ${e.message.split('\n').join('; ')}\n`);
      return 1;
    }
    throw e;
  }
  if (loaded.help) {
    process.stdout.write(loaded.usage);
    return 0;
  }
  const o = loaded.options;
  return controllerManagerProcess({
    component: CLOUD_CONTROLLER_MANAGER_COMPONENT,
    domain: o.domain,
    config: o.config,
    useServiceAccountCredentials: o.config.OrchCloudShared.UseServiceAccountCredentials,
    enabled: o.enabledControllers,
    controllers,
    master: o.master,
    tls: { tlsCertFile: '', tlsPrivateKeyFile: '' },
    logger: jsonLogger(),
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
