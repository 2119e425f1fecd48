import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import { csrRequestField } from '../../src/apis/certificates/testing/csr-fixtures.js';
import { type ConversionCase, conversionCases } from '../../src/apis/conversion/testing/conversion-cases.js';
import { orchctlMain } from '../../src/cli/orchctl/orchctl-main.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';

// Every converted manifest is a valid object of its version: `orchctl convert` converts the old
// manifests of the conversion table, and a real server accepts each output on a dry-run create.

type Json = Record<string, unknown>;

async function convert(dir: string, inputs: readonly Json[], target?: string): Promise<Json[]> {
  const file = join(dir, `in-${target?.replaceAll('/', '_') ?? 'preferred'}.yaml`);
  writeFileSync(file, inputs.map((i) => stringify(i)).join('---\n'));
  let out = '';
  let err = '';
  const code = await orchctlMain(
    ['convert', '-f', file, '-o', 'json', ...(target ? ['--output-version', target] : [])],
    {
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        err += t;
      },
      readStdin: async () => '',
      cwd: dir,
    },
  );
  assert.equal(code, 0, err);
  assert.equal(err, '');
  const printed = JSON.parse(out) as Json;
  return printed.kind === 'List' ? (printed.items as Json[]) : [printed];
}

describe('converted manifests on a real server', () => {
  let s: InProcessServer;
  let dir: string;
  let cases: ConversionCase[];
  const outputs = new Map<string, Json>();
  const paths = new Map<string, { plural: string; namespaced: boolean }>();

  before(async () => {
    s = await startInProcess();
    dir = mkdtempSync(join(tmpdir(), 'orchctl-convert-server-'));
    cases = conversionCases(ORCH_DOMAIN, await csrRequestField('converted')).filter((c) => c.served);
    const byTarget = new Map<string | undefined, ConversionCase[]>();
    for (const c of cases) byTarget.set(c.target, [...(byTarget.get(c.target) ?? []), c]);
    for (const [target, group] of byTarget) {
      const converted = await convert(
        dir,
        group.map((c) => c.input),
        target,
      );
      assert.equal(converted.length, group.length);
      group.forEach((c, i) => {
        outputs.set(c.name, converted[i]);
      });
    }
  });
  after(async () => {
    await s?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function resourceOf(apiVersion: string, kind: string) {
    const key = `${apiVersion}|${kind}`;
    if (!paths.has(key)) {
      const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
      const list = (await s.api.admin('GET', base)).json() as {
        resources: { name: string; kind: string; namespaced: boolean }[];
      };
      const r = list.resources.find((x) => x.kind === kind && !x.name.includes('/'));
      assert.ok(r, `${kind} is served in ${apiVersion}`);
      paths.set(key, { plural: r.name, namespaced: r.namespaced });
    }
    return paths.get(key)!;
  }

  it('the command printed what the conversion table expects', () => {
    for (const c of cases) assert.deepEqual(outputs.get(c.name), c.expected, c.name);
  });

  it('accepts every converted object on a dry-run create (201)', async () => {
    const refused: string[] = [];
    for (const c of cases) {
      const o = outputs.get(c.name)!;
      const apiVersion = o.apiVersion as string;
      const { plural, namespaced } = await resourceOf(apiVersion, o.kind as string);
      const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
      const ns = (o.metadata as Json).namespace as string | undefined;
      const path = `${base}${namespaced ? `/namespaces/${ns ?? 'default'}` : ''}/${plural}?dryRun=All`;
      const r = await s.api.admin('POST', path, { body: o });
      if (r.status !== 201) refused.push(`${c.name}: ${r.status} ${r.text}`);
    }
    assert.deepEqual(refused, []);
  });
});
