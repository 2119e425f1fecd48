import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFacts, SchemaGenError } from './facts.js';
import { formatModule } from './format-module.js';
import type { ModuleConfig } from './module-config.js';
import { MODULES, usedModules } from './modules.js';
import { RBAC_STANDALONE_MODULE } from './rbac-config.js';
import { constantName, generationOrder, type ProvidedType, renderSchemaModule } from './render-schema-module.js';

/**
 * Writes Orch schema modules from the committed upstream facts.
 *
 *   npx tsx scripts/schema-gen/generate.ts core            write src/apis/core/core-v1-schemas.ts
 *   npx tsx scripts/schema-gen/generate.ts all             write every module
 *   npx tsx scripts/schema-gen/generate.ts core --check    exit 1 if the committed module differs
 *   npx tsx scripts/schema-gen/generate.ts core --stdout   print the module instead of writing it
 *   --facts=<file>                                         read other facts (with --stdout or --check)
 *
 * `rbac-standalone` (print only) renders the RBAC module with its label selectors inside, from
 * the facts reduced from kube's published OpenAPI document: the reference for the Go reducer.
 */
const PRINT_ONLY: Readonly<Record<string, ModuleConfig>> = { 'rbac-standalone': RBAC_STANDALONE_MODULE };

const ROOT = join(import.meta.dirname, '..', '..');

/** The definitions the modules `config` uses export, with their constants and modules. */
export function providedTypes(config: ModuleConfig): Map<string, ProvidedType> {
  const out = new Map<string, ProvidedType>();
  for (const used of usedModules(config)) {
    const facts = loadFacts(join(ROOT, used.facts));
    for (const def of generationOrder(facts, used, providedTypes(used))) {
      out.set(def, { constant: constantName(def), from: used.output });
    }
  }
  return out;
}

/** The formatted module for `config`, as the generator writes it. */
export function generateModule(config: ModuleConfig, factsFile = join(ROOT, config.facts)): string {
  const facts = loadFacts(factsFile);
  return formatModule(ROOT, config.output, renderSchemaModule(facts, config, providedTypes(config)));
}

/** Writes, checks or prints one module; returns the exit status. */
function run(config: ModuleConfig, args: string[], factsArg: string | undefined): number {
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

function main(args: string[]): number {
  const name = args.find((a) => !a.startsWith('--'));
  const printing = args.includes('--stdout');
  const configs =
    name === 'all'
      ? Object.values(MODULES)
      : name === undefined
        ? []
        : [MODULES[name] ?? (printing ? PRINT_ONLY[name] : undefined)].filter((c) => c !== undefined);
  if (configs.length === 0) {
    process.stderr.write(`usage: generate.ts <all|${Object.keys(MODULES).join('|')}> [--check|--stdout]\n`);
    return 2;
  }
  const factsArg = args.find((a) => a.startsWith('--facts='))?.slice('--facts='.length);
  if (factsArg !== undefined && ((!printing && !args.includes('--check')) || configs.length > 1)) {
    process.stderr.write(
      '--facts needs one module and --stdout or --check: the committed module comes from the committed facts\n',
    );
    return 2;
  }
  let status = 0;
  for (const config of configs) status = Math.max(status, run(config, args, factsArg));
  return status;
}

if (process.argv[1] === import.meta.filename) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof SchemaGenError)) throw err;
    process.stderr.write(`schema-gen: ${err.message}\n`);
    process.exitCode = 1;
  }
}
