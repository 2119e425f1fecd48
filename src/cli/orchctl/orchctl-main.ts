/**
 * orchctl's top level: a table of subcommands (one module each), the
 * top-level help, and kubectl's message for an unknown command.
 */

import { apiResourcesSubcommand } from './api-resources-command.js';
import { applySubcommand } from './apply-command.js';
import { authSubcommand } from './auth-command.js';
import type { CommandIo, Subcommand } from './command-io.js';
import { configSubcommand } from './config-command.js';
import { convertSubcommand } from './convert-command.js';
import { createSubcommand } from './create-command.js';
import { deleteSubcommand } from './delete-command.js';
import { getSubcommand } from './get-command.js';
import { patchSubcommand } from './patch-command.js';

/** Every subcommand, in help order. */
export const SUBCOMMANDS: readonly Subcommand[] = [
  getSubcommand,
  createSubcommand,
  applySubcommand,
  patchSubcommand,
  deleteSubcommand,
  apiResourcesSubcommand,
  authSubcommand,
  configSubcommand,
  convertSubcommand,
];

function usage(table: readonly Subcommand[]): string {
  const width = Math.max(...table.map((c) => c.name.length));
  const rows = table.map((c) => `  ${c.name.padEnd(width)}   ${c.summary}\n`).join('');
  return `orchctl works with Orch manifests and API objects.

Available Commands:
${rows}
Usage:
  orchctl [command] [flags]

Use "orchctl <command> --help" for more information about a given command.
`;
}

/** Runs orchctl with `argv` (without the program name); resolves to the exit code. */
export async function orchctlMain(
  argv: readonly string[],
  io: CommandIo,
  table: readonly Subcommand[] = SUBCOMMANDS,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage(table));
    return 0;
  }
  const command = table.find((c) => c.name === name);
  if (!command) {
    io.stderr(`error: unknown command "${name}" for "orchctl"\nRun 'orchctl --help' for usage.\n`);
    return 1;
  }
  return command.run(rest, io);
}
