/**
 * Benchmark entry point: `npm run bench -- <suite>`. Each suite prints a table of figures
 * beside a baseline measured in the same run, and ends with one JSON line of its figures.
 */
const suites: Record<string, () => Promise<void>> = {
  storage: async () => (await import('./storage/storage-bench.js')).runStorageBench(),
  encoding: async () => (await import('./encoding/encoding-bench.js')).runEncodingBench(),
  api: async () => (await import('./api/api-bench.js')).runApiBench(),
  apply: async () => (await import('./apply/apply-bench.js')).runApplyBench(),
  cel: async () => (await import('./cel/cel-bench.js')).runCelBench(),
  authn: async () => (await import('./authn/authn-bench.js')).runAuthnBench(),
  authz: async () => (await import('./authz/authz-bench.js')).runAuthzBench(),
  builtin: async () => (await import('./builtin/builtin-bench.js')).runBuiltinBench(),
  cluster: async () => (await import('./cluster/cluster-bench.js')).runClusterBench(),
  crd: async () => (await import('./crd/crd-bench.js')).runCrdBench(),
  controllers: async () => (await import('./controllers/controllers-bench.js')).runControllersBench(),
};

const name = process.argv[2];
const suite = name ? suites[name] : undefined;
if (!suite) {
  console.error(`usage: npm run bench -- <${Object.keys(suites).join('|')}>`);
  process.exit(2);
}
await suite();
process.exit(0);
