#!/usr/bin/env node
import { controllerManagerMain } from './controller-manager-command.js';

/** `orch-controller-manager`. The controller list and the run loop are wired in by the process code. */
controllerManagerMain(process.argv.slice(2), {
  controllers: [],
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
}).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
