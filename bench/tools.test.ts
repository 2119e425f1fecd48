import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkTools, findTool, MissingToolsError, SUITE_TOOLS, TOOLS, type Tool, toolPath } from './tools.js';

const ABSENT = 'orch-bench-no-such-tool-5e0c1a';

describe('findTool and checkTools', () => {
  let dir: string;
  let exe: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-bench-tools-'));
    exe = join(dir, 'fake-tool');
    writeFileSync(exe, '#!/bin/sh\nexit 0\n');
    chmodSync(exe, 0o755);
    writeFileSync(join(dir, 'not-executable'), 'data');
    chmodSync(join(dir, 'not-executable'), 0o644);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const cases: {
    name: string;
    tool: (dir: string) => Tool;
    env: (dir: string) => NodeJS.ProcessEnv;
    want: (dir: string) => string | undefined;
  }[] = [
    {
      name: 'a command on PATH',
      tool: () => ({ command: 'fake-tool', hint: 'h' }),
      env: (d) => ({ PATH: `/nonexistent:${d}` }),
      want: (d) => join(d, 'fake-tool'),
    },
    {
      name: 'a command that exists nowhere',
      tool: () => ({ command: ABSENT, hint: 'h' }),
      env: (d) => ({ PATH: d }),
      want: () => undefined,
    },
    {
      name: 'a file on PATH that is not executable',
      tool: () => ({ command: 'not-executable', hint: 'h' }),
      env: (d) => ({ PATH: d }),
      want: () => undefined,
    },
    {
      name: 'no PATH at all',
      tool: () => ({ command: 'fake-tool', hint: 'h' }),
      env: () => ({}),
      want: () => undefined,
    },
    {
      name: 'a fallback path when the command is not on PATH',
      tool: (d) => ({ command: ABSENT, fallbacks: ['/nonexistent/x', join(d, 'fake-tool')], hint: 'h' }),
      env: () => ({ PATH: '/nonexistent' }),
      want: (d) => join(d, 'fake-tool'),
    },
    {
      name: 'the environment variable naming a path',
      tool: () => ({ command: ABSENT, envVar: 'FAKE_BIN', hint: 'h' }),
      env: (d) => ({ PATH: '/nonexistent', FAKE_BIN: join(d, 'fake-tool') }),
      want: (d) => join(d, 'fake-tool'),
    },
    {
      name: 'the environment variable naming a command on PATH',
      tool: () => ({ command: ABSENT, envVar: 'FAKE_BIN', hint: 'h' }),
      env: (d) => ({ PATH: d, FAKE_BIN: 'fake-tool' }),
      want: (d) => join(d, 'fake-tool'),
    },
    {
      name: 'the environment variable set to a missing path wins over PATH and fallbacks',
      tool: (d) => ({ command: 'fake-tool', envVar: 'FAKE_BIN', fallbacks: [join(d, 'fake-tool')], hint: 'h' }),
      env: (d) => ({ PATH: d, FAKE_BIN: join(d, ABSENT) }),
      want: () => undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const tool = c.tool(dir);
      const env = c.env(dir);
      const want = c.want(dir);
      assert.equal(findTool(tool, env), want);
      if (want === undefined) {
        assert.throws(() => checkTools([tool], env), MissingToolsError);
        assert.throws(() => toolPath(tool, env), MissingToolsError);
      } else {
        checkTools([tool], env);
        assert.equal(toolPath(tool, env), want);
      }
    });
  }

  it('names every missing tool and its hint on one line', () => {
    const missing: Tool[] = [
      { command: ABSENT, hint: 'apt-get install -y no-such-tool' },
      { command: `${ABSENT}-2`, envVar: 'FAKE_BIN', hint: 'apt-get install -y other\n(or set FAKE_BIN)' },
    ];
    const present: Tool = { command: 'fake-tool', hint: 'never shown' };
    const err = (() => {
      try {
        checkTools([present, ...missing], { PATH: dir });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    assert.ok(err instanceof MissingToolsError);
    assert.deepEqual(
      err.missing.map((t) => t.command),
      [ABSENT, `${ABSENT}-2`],
    );
    assert.equal(
      err.message,
      `${ABSENT} not found (apt-get install -y no-such-tool); ${ABSENT}-2 not found (apt-get install -y other (or set FAKE_BIN))`,
    );
  });
});

describe('SUITE_TOOLS', () => {
  it('gives every tool a one-line install hint', () => {
    for (const [suite, tools] of Object.entries(SUITE_TOOLS)) {
      for (const t of tools as readonly Tool[]) {
        assert.match(t.hint, /^apt-get install -y \S+/, `${suite}: ${t.command}`);
        assert.doesNotMatch(t.hint, /\n/, `${suite}: ${t.command}`);
      }
    }
  });

  const needs: [suite: keyof typeof SUITE_TOOLS, tools: Tool[]][] = [
    ['api', [TOOLS.wrk]],
    ['storage', [TOOLS.etcd]],
    ['cluster', [TOOLS.wrk, TOOLS.etcd, TOOLS.haproxy]],
    ['authz', [TOOLS.wrk]],
    ['builtin', []],
    ['crd', [TOOLS.wrk, TOOLS.h2load]],
    ['cel', []],
  ];
  for (const [suite, tools] of needs) {
    it(`${suite} needs ${tools.map((t) => t.command).join(', ') || 'nothing but Node'}`, () => {
      assert.deepEqual([...SUITE_TOOLS[suite]], tools);
    });
  }
});
