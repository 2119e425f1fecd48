import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { builtinResources } from '../../src/apis/builtin.js';
import { apiServerFlagTable } from '../../src/cli/flags/apiserver-flags.js';
import { newOrchFeatureGates } from '../../src/featuregate/orch-features.js';

const README = resolve(import.meta.dirname, '..', '..', 'README.md');

/** The `--flag` names in the first column of the README's flag table. */
function readmeFlagNames(markdown: string): string[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((l) => /^\|\s*flag\s*\|/.test(l));
  assert.ok(header >= 0, 'README has no "| flag |" table');
  const names: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const firstCell = line.split('|')[1];
    for (const m of firstCell.matchAll(/`--([a-z0-9-]+)`/g)) names.push(m[1]);
  }
  return names;
}

describe('README flag table', () => {
  const inReadme = readmeFlagNames(readFileSync(README, 'utf8'));
  const table = apiServerFlagTable({ featureGates: newOrchFeatureGates(), servedResources: () => builtinResources() });
  const declared = Object.values(table).map((f) => f.name);

  it('lists every orch-apiserver flag', () => {
    assert.deepEqual(
      declared.filter((name) => !inReadme.includes(name)),
      [],
    );
  });

  it('lists no flag that orch-apiserver does not have', () => {
    assert.deepEqual(
      inReadme.filter((name) => !declared.includes(name)),
      [],
    );
  });
});
