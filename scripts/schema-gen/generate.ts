import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFacts, SchemaGenError } from './facts.js';
import { formatModule } from './format-module.js';
import type { ModuleConfig } from './module-config.js';
import { RBAC_MODULE } from './rbac-config.js';
import { renderSchemaModule } from './render-schema-module.js';

/**
 * Writes Orch schema modules from the committed upstream facts.
 *
 *   npx tsx scripts/schema-gen/generate.ts rbac            write src/apis/rbac/rbac-schemas.ts
 *   npx tsx scripts/schema-gen/generate.ts rbac --check    exit 1 if the committed module differs
 *   npx tsx scripts/schema-gen/generate.ts rbac --stdout   print the module instead of writing it
 *   --facts=<file>                                         read other facts (with --stdout or --check)
 */
const MODULES: Readonly<Record<string, ModuleConfig>> = { rbac: RBAC_MODULE };

const ROOT = join(import.meta.dirname, '..', '..');

/** The formatted module for `config`, as the generator writes it. */
export function generateModule(config: ModuleConfig, factsFile = join(ROOT, config.facts)): string {
  const facts = loadFacts(factsFile);
  return formatModule(ROOT, config.output, renderSchemaModule(facts, config));
}

function main(args: string[]): number {
  const name = args.find((a) => !a.startsWith('--'));
  const config = name === undefined ? undefined : MODULES[name];
  if (config === undefined) {
    process.stderr.write(`usage: generate.ts <${Object.keys(MODULES).join('|')}> [--check|--stdout]\n`);
    return 2;
  }
  const factsArg = args.find((a) => a.startsWith('--facts='))?.slice('--facts='.length);
  if (factsArg !== undefined && !args.includes('--stdout') && !args.includes('--check')) {
    process.stderr.write('--facts needs --stdout or --check: the committed module comes from the committed facts\n');
    return 2;
  }
  const text = generateModule(config, factsArg);
  const target = join(ROOT, config.output);
  if (args.includes('--stdout')) {
    process.stdout.write(text);
  } else if (args.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(target, 'utf8');
    } catch {
      // A missing module differs from the generated one.
    }
    if (committed !== text) {
      process.stderr.write(`${config.output} is out of date: run ${config.command}\n`);
      return 1;
    }
  } else {
    writeFileSync(target, text);
    process.stdout.write(`wrote ${config.output}\n`);
  }
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof SchemaGenError)) throw err;
  process.stderr.write(`schema-gen: ${err.message}\n`);
  process.exitCode = 1;
}
