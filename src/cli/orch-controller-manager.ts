#!/usr/bin/env node
import { controllerManagerProcess } from '../controllermanager/controller-manager-process.js';
import { controllerManagerControllers } from '../controllers/all-controllers.js';
import { jsonLogger } from '../util/logger.js';
import { controllerManagerMain } from './controller-manager-command.js';

/** `orch-controller-manager`: the command line, then the controllers until SIGTERM or SIGINT. */
const controllers = controllerManagerControllers();
controllerManagerMain(process.argv.slice(2), {
  controllers,
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  run: (options) =>
    controllerManagerProcess({
      component: options.domain.controllerManagerName,
      domain: options.domain,
      config: options.config,
      useServiceAccountCredentials: options.config.OrchCloudShared.UseServiceAccountCredentials,
      enabled: options.enabledControllers,
      controllers,
      master: options.master,
      tls: options.serving,
      logger: jsonLogger(),
    }),
}).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
