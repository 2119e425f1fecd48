#!/usr/bin/env node
import { homedir } from 'node:os';
import { orchctlMain } from './orchctl/orchctl-main.js';

/** `orchctl`: the subcommand named by the first argument, with the process's standard streams. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

orchctlMain(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  readStdin,
  cwd: process.cwd(),
  env: process.env,
  homeDir: homedir(),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
