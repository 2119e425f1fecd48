/**
 * Benchmark entry point: `npm run bench -- <suite> [--quick]`. Each suite prints a table of
 * figures beside a baseline measured in the same run (or a stated target), and ends with one JSON
 * line of its figures, every one a finite number.
 *
 * The external tools a suite needs (bench/tools.ts) are checked before the suite is loaded; a
 * missing tool, like any error a suite throws, ends the run with one line on stderr and exit
 * code 1 (the stack too with BENCH_DEBUG=1).
 */
import { type BenchOptions, failureLine, parseBenchArgs } from './cli.js';
import { checkTools, SUITE_TOOLS, type SuiteName } from './tools.js';

const suites: Record<SuiteName, (options: BenchOptions) => Promise<void>> = {
  storage: async () => (await import('./storage/storage-bench.js')).runStorageBench(),
  encoding: async () => (await import('./encoding/encoding-bench.js')).runEncodingBench(),
  api: async (o) => (await import('./api/api-bench.js')).runApiBench(o),
  apply: async () => (await import('./apply/apply-bench.js')).runApplyBench(),
  cel: async () => (await import('./cel/cel-bench.js')).runCelBench(),
  authn: async (o) => (await import('./authn/authn-bench.js')).runAuthnBench(o),
  authz: async (o) => (await import('./authz/authz-bench.js')).runAuthzBench(o),
  builtin: async (o) => (await import('./builtin/builtin-bench.js')).runBuiltinBench(o),
  cluster: async (o) => (await import('./cluster/cluster-bench.js')).runClusterBench(o),
  crd: async (o) => (await import('./crd/crd-bench.js')).runCrdBench(o),
  controllers: async (o) => (await import('./controllers/controllers-bench.js')).runControllersBench(o),
};

const args = parseBenchArgs(process.argv.slice(2));
if ('usage' in args) {
  console.error(args.usage);
  process.exit(2);
}
const fail = (err: unknown): never => {
  console.error(failureLine(args.suite, err));
  if (process.env.BENCH_DEBUG === '1' && err instanceof Error) console.error(err.stack);
  process.exit(1);
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
try {
  checkTools(SUITE_TOOLS[args.suite]);
  await suites[args.suite](args.options);
} catch (err) {
  fail(err);
}
process.exit(0);
