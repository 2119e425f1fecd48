/**
 * Runs cel-spec's conformance suite (from `@bufbuild/cel-spec`) through this layer's
 * environments: each test's variables are declared in a stored-expressions environment of a
 * `CelEnvironmentSet` with kube's libraries, its expression compiled with `compile` (or only parsed, when the test
 * disables checking) and evaluated by the engine on the test's bindings. The raw engine result
 * is compared, so that `1` and `1.0` stay apart.
 */
import type { IncrementalTest, IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import type { CelVariable } from '../cel-environment.js';
import { CelEnvironmentSet } from '../environment-set.js';
import { CelCompileError } from '../errors.js';
import { versionedCelLibraries } from '../library/index.js';
import { type CelProgram, compile } from '../program.js';
import { parseUnchecked } from '../unchecked-program.js';
import { engineTypeName, engineValue, isTypeValue, sameValue, UNSUPPORTED } from './conformance-values.js';

/** Groups not run, and why. */
export const SKIPPED_GROUPS: Readonly<Record<string, string>> = {
  proto2: 'protobuf messages (TestAllTypes): the engine has no protobuf types',
  proto3: 'protobuf messages (TestAllTypes): the engine has no protobuf types',
  proto2_ext: 'protobuf extensions: the engine has no protobuf types',
  enums: 'protobuf enums: the engine has no protobuf types',
  dynamic:
    'protobuf well-known types (wrappers, Struct, Value, Any) built from message literals: the engine has no protobuf types',
  wrappers: 'protobuf wrapper types built from message literals: the engine has no protobuf types',
  namespace: 'containers (qualified names): the engine has no namespaces',
  unknowns: 'partial evaluation with unknowns: not part of kube-apiserver evaluation',
  block_ext: 'cel.block is an optimizer extension kube-apiserver does not offer',
  encoders_ext: 'base64 encoders are not in kube-apiserver v1.32 environments',
  math_ext: 'the math extension is not in kube-apiserver v1.32 environments',
};

/** What kube-apiserver v1.32's cel-go (v0.22) answers: a string, or an error holding the text. */
type KubeAnswer = { readonly value: string } | { readonly error: string };

interface KubeDifference {
  readonly reason: string;
  readonly kube: KubeAnswer;
}

const SCIENTIFIC =
  "kube v1.32's cel-go (v0.22) formats %e through a locale printer: `1.052033 × 10⁰³` with narrow no-break " +
  "spaces (cel-spec v0.25.1: `1.052033e+03`); kube's kept";
const INFINITY =
  "kube v1.32's cel-go (v0.22) formats infinite doubles for %e and %f through a locale printer: `∞`, `-∞` " +
  "(cel-spec v0.25.1: `Infinity`, `-Infinity`); kube's kept";
const DECIMAL =
  "kube v1.32's cel-go (v0.22) accepts only int and uint for %d: a double fails (cel-spec v0.25.1 formats " +
  "NaN and the infinities); kube's kept";
const LITERALS =
  "kube v1.32's cel-go (v0.22) formats the members of a list or map for %s as CEL literals (quoted strings, " +
  'doubles with six decimals, `timestamp("…")`, map entries `k:v` sorted by key) where cel-spec v0.25.1 ' +
  "formats each as %s does; kube's kept";
const LAST_INDEX_OF =
  "kube v1.32's cel-go (v0.22) fails `''.lastIndexOf(s)` for a non-empty `s` (`index out of range: -1`; " +
  "fixed in later cel-go, cel-spec v0.25.1 wants -1); kube's kept";

/**
 * Tests (`group/name`) where kube-apiserver v1.32's cel-go (v0.22) answers differently from
 * cel-spec v0.25.1 and this layer keeps kube's answer: each runs against kube's answer (taken from
 * cel-go v0.22's own tests of its strings extension) and is counted as skipped, with the reason,
 * when it gives it; otherwise it fails.
 */
export const KUBE_DIFFERENCES: Readonly<Record<string, KubeDifference>> = Object.fromEntries(
  (
    [
      ['scientific notation formatting clause', SCIENTIFIC, { value: '1.052033\u202f×\u202f10⁰³' }],
      ['default precision for scientific notation', SCIENTIFIC, { value: '2.718280\u202f×\u202f10⁰⁰' }],
      ['dyntype support for scientific notation', SCIENTIFIC, { value: '2.718280\u202f×\u202f10⁰⁰' }],
      [
        'scientific notation formatting clause in a string variable',
        SCIENTIFIC,
        { value: '1.052033\u202f×\u202f10⁰³' },
      ],
      ['positive infinity support for scientific notation', INFINITY, { value: '∞' }],
      ['negative infinity support for scientific notation', INFINITY, { value: '-∞' }],
      ['positive infinity support for fixed-point', INFINITY, { value: '∞' }],
      ['negative infinity support for fixed-point', INFINITY, { value: '-∞' }],
      ['NaN support for decimal', DECIMAL, { error: 'decimal clause can only be used on integers, was given double' }],
      ['positive infinity support for decimal', DECIMAL, { error: 'decimal clause can only be used on integers' }],
      ['negative infinity support for decimal', DECIMAL, { error: 'decimal clause can only be used on integers' }],
      [
        'list support for string',
        LITERALS,
        { value: '["abc", 3.140000, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]' },
      ],
      [
        'map support for string',
        LITERALS,
        { value: '{"key1":b"xyz", "key2":duration("7200s"), "key3":2.718280, "key4":true, "key5":null}' },
      ],
      ['map support (all key types)', LITERALS, { value: '{1:"value1", 2:"value2", true:"NaN"}' }],
      ['dyntype NaN/infinity support', LITERALS, { value: '["NaN", "+Inf", "-Inf"]' }],
      ['dyntype support for lists', LITERALS, { value: '[6, 4.200000, "a string"]' }],
      ['dyntype support for maps', LITERALS, { value: '{"strKey":"x", 6:duration("422s"), true:42}' }],
      ['empty_string', LAST_INDEX_OF, { error: 'index out of range: -1' }],
    ] as const
  ).map(([name, reason, kube]) => [`string_ext/${name}`, { reason, kube }]),
);

export interface GroupResult {
  readonly group: string;
  /** Tests kube's environment compiles (or is meant to reject) that pass. */
  passed: number;
  failed: number;
  /**
   * Tests set aside because kube's environment rejects them only for a list or map literal that
   * is not homogeneous (`[1, 'a']`): run again with that one rule off, they pass (`asidePassed`)
   * or fail (`asideFailed`, also listed in `failures`).
   */
  asidePassed: number;
  asideFailed: number;
  /** Tests of a run group that need what the engine lacks, by reason. */
  readonly skipped: Map<string, number>;
  /** `name: reason` of each failed test. */
  readonly failures: string[];
}

type Outcome =
  | { status: 'pass' }
  | { status: 'fail'; reason: string }
  | { status: 'skip'; reason: string }
  | { status: 'aside'; passed: boolean; reason?: string };

/** Runs every group of `suite` not in {@link SKIPPED_GROUPS}. */
export function runConformanceSuite(suite: IncrementalTestSuite): GroupResult[] {
  const sets: Sets = {
    kube: new CelEnvironmentSet({ programCacheSize: 0, libraries: versionedCelLibraries() }),
    heterogeneous: new CelEnvironmentSet({
      programCacheSize: 0,
      libraries: versionedCelLibraries(),
      homogeneousAggregateLiterals: false,
    }),
  };
  const results: GroupResult[] = [];
  for (const group of suite.suites) {
    if (SKIPPED_GROUPS[group.name]) continue;
    const result: GroupResult = {
      group: group.name,
      passed: 0,
      failed: 0,
      asidePassed: 0,
      asideFailed: 0,
      skipped: new Map(),
      failures: [],
    };
    for (const test of testsOf(group)) {
      const difference = KUBE_DIFFERENCES[`${group.name}/${test.name}`];
      const outcome: Outcome = difference ? runKubeDifference(sets.kube, test, difference) : runTest(sets, test);
      if (outcome.status === 'pass') result.passed++;
      else if (outcome.status === 'fail') {
        result.failed++;
        result.failures.push(`${test.name}: ${outcome.reason}`);
      } else if (outcome.status === 'aside') {
        if (outcome.passed) result.asidePassed++;
        else {
          result.asideFailed++;
          result.failures.push(`${test.name} (homogeneous-literal rule off): ${outcome.reason}`);
        }
      } else result.skipped.set(outcome.reason, (result.skipped.get(outcome.reason) ?? 0) + 1);
    }
    results.push(result);
  }
  return results;
}

function testsOf(suite: IncrementalTestSuite): IncrementalTest[] {
  return [...suite.tests, ...suite.suites.flatMap(testsOf)];
}

/** `TypeName{...}` or `google.protobuf.Int32Value{value: 1}`: constructing a protobuf message. */
const MESSAGE_LITERAL = /(?:^|[^\w.'"])(?!in\s*\{)[A-Za-z_][\w.]*\s*\{/;

function skip(reason: string): RunOutcome {
  return { status: 'skip', reason };
}

interface Sets {
  /** kube's environments. */
  readonly kube: CelEnvironmentSet;
  /** The same, with the homogeneous-literal rule off. */
  readonly heterogeneous: CelEnvironmentSet;
}

/** Whether `e` is kube's homogeneous-literal compile error, and only that. */
function isHomogeneousLiteralError(e: unknown): boolean {
  const code = e instanceof CelCompileError ? (e.cause as { code?: unknown } | undefined)?.code : undefined;
  return typeof code === 'string' && code.startsWith('heterogeneous_');
}

function runTest(sets: Sets, test: IncrementalTest): Outcome {
  const outcome = runTestIn(sets.kube, test);
  if (outcome.status !== 'fail' || !outcome.homogeneousRule) return outcome;
  const relaxed = runTestIn(sets.heterogeneous, test);
  if (relaxed.status === 'skip') return relaxed;
  return relaxed.status === 'pass'
    ? { status: 'aside', passed: true }
    : { status: 'aside', passed: false, reason: relaxed.status === 'fail' ? relaxed.reason : '' };
}

/** A test where kube's answer is kept: skipped with the reason when this layer gives kube's answer. */
function runKubeDifference(set: CelEnvironmentSet, test: IncrementalTest, difference: KubeDifference): Outcome {
  const outcome = runTestIn(set, test, difference.kube);
  return outcome.status === 'pass' ? { status: 'skip', reason: difference.reason } : outcome;
}

type RunOutcome =
  | { status: 'pass' }
  | { status: 'fail'; reason: string; homogeneousRule?: boolean }
  | { status: 'skip'; reason: string };

function runTestIn(set: CelEnvironmentSet, test: IncrementalTest, kube?: KubeAnswer): RunOutcome {
  const t = test.original;
  if (t.disableMacros) return skip('macros disabled');
  if (t.container) return skip('containers (qualified names)');
  // (Comments and line breaks around the dots of a qualified message name do not hide it.)
  const code = t.expr
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\s*\.\s*/g, '.')
    .replace(/(^|[^\w)\]])\.(?=[A-Za-z_])/g, '$1');
  if (MESSAGE_LITERAL.test(t.expr) || MESSAGE_LITERAL.test(code)) return skip('protobuf message literals');
  if (t.typeEnv.some((d) => d.name.includes('.')) || Object.keys(t.bindings).some((n) => n.includes('.'))) {
    return skip('variables with qualified names (a.b.c): resolved through containers, which kube does not declare');
  }
  const variables: CelVariable[] = [];
  for (const decl of t.typeEnv) {
    if (decl.declKind.case !== 'ident') return skip('declared functions');
    const celType = engineTypeName(decl.declKind.value.type);
    if (celType === undefined) return skip('protobuf message types');
    variables.push({ name: decl.name, type: { kind: 'native', celType } });
  }
  const values: Record<string, unknown> = {};
  for (const [name, bound] of Object.entries(t.bindings)) {
    if (bound.kind.case !== 'value') return skip('unknown or error bindings');
    const v = engineValue(bound.kind.value);
    if (v === UNSUPPORTED) return skip('protobuf message values');
    values[name] = v;
    if (!variables.some((x) => x.name === name)) variables.push({ name, type: { kind: 'native', celType: 'dyn' } });
  }
  const matcher = t.resultMatcher;
  if (matcher.case === 'unknown' || matcher.case === 'anyUnknowns') return skip('unknowns');
  let expected: unknown = true;
  let expectedType: string | undefined;
  if (matcher.case === 'value' || matcher.case === 'typedResult') {
    const v = matcher.case === 'value' ? matcher.value : matcher.value.result;
    if (v === undefined) return skip('no expected value');
    if (v.kind.case === 'typeValue') expectedType = v.kind.value;
    else {
      expected = engineValue(v);
      if (expected === UNSUPPORTED) return skip('protobuf message values');
    }
  }
  let wantsError = matcher.case === 'evalError' || matcher.case === 'anyEvalErrors';
  let wantedError: string | undefined;
  if (kube !== undefined) {
    wantsError = 'error' in kube;
    if ('error' in kube) wantedError = kube.error;
    else expected = kube.value;
    expectedType = undefined;
  }

  const env = set.extend({ name: 'conformance', variables }).storedExpressions;
  let program: CelProgram;
  try {
    program = t.disableCheck ? parseUnchecked(t.expr, env) : compile(t.expr, env);
  } catch (e) {
    const reason = `compile: ${e instanceof CelCompileError ? e.issues[0]?.message : String(e)}`;
    return { status: 'fail', reason, homogeneousRule: isHomogeneousLiteralError(e) };
  }
  if (t.checkOnly) return { status: 'pass' };
  let actual: unknown;
  try {
    actual = program.parsed(values);
  } catch (e) {
    const message = (e as Error).message.split('\n')[0];
    if (wantsError && (wantedError === undefined || message.includes(wantedError))) return { status: 'pass' };
    return { status: 'fail', reason: `evaluation: ${message}` };
  }
  if (wantsError) return { status: 'fail', reason: `want an error, got ${show(actual)}` };
  const ok = expectedType !== undefined ? isTypeValue(actual, expectedType) : sameValue(actual, expected);
  return ok
    ? { status: 'pass' }
    : { status: 'fail', reason: `got ${show(actual)}, want ${show(expectedType ?? expected)}` };
}

function show(v: unknown): string {
  try {
    return (
      JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x instanceof Map ? Object.fromEntries(x) : x)) ??
      String(v)
    );
  } catch {
    return String(v);
  }
}
