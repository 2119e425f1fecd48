#!/usr/bin/env node
// Runs the whole test suite with Node's test runner: every *.test.ts under src/, test/, scripts/ and bench/,
// or only the files/folders given as arguments. Node 20 expands no globs, so we list files.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(path, out) {
  const st = statSync(path);
  if (st.isFile()) {
    if (path.endsWith('.test.ts')) out.push(path);
    return out;
  }
  for (const entry of readdirSync(path).sort()) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    collect(join(path, entry), out);
  }
  return out;
}

const args = process.argv.slice(2);
const roots = args.length > 0 ? args : ['src', 'test', 'scripts', 'bench'];
const files = roots.flatMap((r) => collect(r, []));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const concurrency = process.env.ORCH_TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
