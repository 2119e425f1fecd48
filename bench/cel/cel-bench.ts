import { Environment } from '@marcbachmann/cel-js';
import type { Schema } from '../../src/apis/schema/schema.js';
import type { CelEnvironment } from '../../src/cel/cel-environment.js';
import { AUTHENTICATION_CLAIMS_DECLARATIONS, crdValidationDeclarations } from '../../src/cel/declarations.js';
import { CelEnvironmentSet } from '../../src/cel/environment-set.js';
import { celLibraries, versionedCelLibraries } from '../../src/cel/library/index.js';
import { compile, evaluate, PreparedActivation } from '../../src/cel/program.js';
import { printFigures } from '../figures.js';
import { median, printTable, type Row } from '../storage/measure.js';

/** Rounds per figure, ours and the raw engine alternating; the median ratio is reported. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_CEL_ROUNDS ?? 5));
const ROUND_MS = Number(process.env.BENCH_CEL_ROUND_MS ?? 300);

const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        maxReplicas: { type: 'integer' },
        paused: { type: 'boolean' },
        memory: { type: 'string' },
      },
    },
  },
};
const self = {
  apiVersion: 'example.orch.io/v1',
  kind: 'Widget',
  metadata: { name: 'abc-web', namespace: 'default' },
  spec: { replicas: 3, maxReplicas: 10, paused: false, memory: '512Mi' },
};
const oldSelf = { ...self, spec: { ...self.spec, replicas: 2 } };
const claims = {
  iss: 'https://issuer.example.com',
  sub: '1234567890',
  email: 'alice@example.com',
  email_verified: true,
  groups: ['dev', 'ops'],
  exp: 1767225600,
};

interface Rule {
  readonly name: string;
  readonly expression: string;
  readonly env: 'crd' | 'claims';
}

const RULES: readonly Rule[] = [
  {
    name: 'CRD rule over self',
    expression: "self.spec.replicas <= self.spec.maxReplicas && self.metadata.name.startsWith('a')",
    env: 'crd',
  },
  {
    name: 'transition rule (oldSelf)',
    expression: 'self.spec.replicas >= oldSelf.spec.replicas || self.spec.paused',
    env: 'crd',
  },
  {
    name: 'claim mapping',
    expression: "has(claims.email) && claims.email_verified ? claims.email : 'sub:' + claims.sub",
    env: 'claims',
  },
  {
    name: 'quantity comparison',
    expression: "quantity(self.spec.memory).isLessThan(quantity('900Mi'))",
    env: 'crd',
  },
  {
    name: 'regex (matches)',
    expression: "self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
    env: 'crd',
  },
];

function opsPerSec(fn: () => unknown): number {
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ROUND_MS) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
  }
  return n / ((performance.now() - t0) / 1000);
}

/** {@link ROUNDS} alternating rounds of ours and the raw engine; medians and the median ratio. */
function measure(metric: string, unit: string, ours: () => unknown, raw: () => unknown): Row {
  for (let i = 0; i < 2000; i++) {
    ours();
    raw();
  }
  const o: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first, so neither always runs on a warmer (or busier) machine.
    let oursRate: number;
    let rawRate: number;
    if (r % 2 === 0) {
      oursRate = opsPerSec(ours);
      rawRate = opsPerSec(raw);
    } else {
      rawRate = opsPerSec(raw);
      oursRate = opsPerSec(ours);
    }
    o.push(oursRate);
    b.push(rawRate);
    ratios.push(oursRate / rawRate);
  }
  return {
    metric,
    ours: median(o),
    baseline: median(b),
    unit,
    ratio: median(ratios),
    spread: [Math.min(...ratios), Math.max(...ratios)],
  };
}

/**
 * Compilations and evaluations per second of five representative rules through this layer
 * (environment set, schema-typed `self`, JSON conversion of inputs and results, RE2 `matches`)
 * beside the raw engine (a plain `Environment` with the variables declared `map` and the same kube
 * libraries registered, the same JSON
 * inputs, no adapters). Compilations are uncached on both sides. Evaluations are measured with
 * the JSON passed on each call (converted as the expression reads it: only the values a field
 * chain ends at), and with an activation prepared once and shared (as
 * kube-apiserver shares one activation among all rules of an object). Prints the table and one
 * JSON line of figures.
 */
/** The raw engine with the same kube libraries registered (they are plain engine functions). */
function withLibraries(env: Environment): Environment {
  for (const library of celLibraries()) library.register(env);
  return env;
}

export async function runCelBench(): Promise<void> {
  const set = new CelEnvironmentSet({ programCacheSize: 0, libraries: versionedCelLibraries() });
  const ours: Record<Rule['env'], CelEnvironment> = {
    crd: set.extend(crdValidationDeclarations(schema, { isResourceRoot: true })).newExpressions,
    claims: set.extend(AUTHENTICATION_CLAIMS_DECLARATIONS).newExpressions,
  };
  const raw: Record<Rule['env'], Environment> = {
    crd: withLibraries(new Environment().registerVariable('self', 'map').registerVariable('oldSelf', 'map')),
    claims: withLibraries(new Environment().registerVariable('claims', 'map')),
  };
  const activation = { crd: { self, oldSelf }, claims: { claims } };

  const rows: Row[] = [];
  const figures: Record<string, number> = {};
  for (const rule of RULES) {
    const env = ours[rule.env];
    const rawEnv = raw[rule.env];
    const program = compile(rule.expression, env);
    const rawProgram = rawEnv.parse(rule.expression);
    if (!rawProgram.check().valid) throw new Error(`raw engine rejects ${rule.expression}`);
    const input = activation[rule.env];
    const want = evaluate(program, input);
    if (JSON.stringify(rawProgram(input)) !== JSON.stringify(want)) throw new Error(`${rule.name}: results differ`);

    const compiles = measure(
      `${rule.name}: compile`,
      'compiles/s',
      () => compile(rule.expression, env),
      () => rawEnv.parse(rule.expression).check(),
    );
    const evaluations = measure(
      `${rule.name}: evaluate, JSON in`,
      'evals/s',
      () => evaluate(program, input),
      () => rawProgram(input),
    );
    const prepared = new PreparedActivation(env, input);
    const preparedEvaluations = measure(
      `${rule.name}: evaluate, prepared activation`,
      'evals/s',
      () => evaluate(program, prepared),
      () => rawProgram(input),
    );
    rows.push(compiles, evaluations, preparedEvaluations);
    const key = rule.name.split(' ')[0].toLowerCase();
    figures[`${key}.compile.per_s`] = Math.round(compiles.ours);
    figures[`${key}.evaluate.per_s`] = Math.round(evaluations.ours);
    figures[`${key}.evaluate.ratio`] = Math.round((evaluations.ratio ?? 0) * 1000) / 1000;
    figures[`${key}.evaluate_prepared.per_s`] = Math.round(preparedEvaluations.ours);
    figures[`${key}.evaluate_prepared.ratio`] = Math.round((preparedEvaluations.ratio ?? 0) * 1000) / 1000;
  }
  printTable('CEL: this layer beside the raw engine (@marcbachmann/cel-js), same inputs', rows);
  printFigures(figures);
}
