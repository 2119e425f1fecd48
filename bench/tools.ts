import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** An external program a benchmark suite runs. */
export interface Tool {
  /** The executable's name, looked up on PATH. */
  readonly command: string;
  /** An environment variable that, when set, names the executable instead (a path or a name on PATH). */
  readonly envVar?: string;
  /** Paths tried after PATH when `envVar` is unset (Debian puts daemons in /usr/sbin). */
  readonly fallbacks?: readonly string[];
  /** How to install it, on one line. */
  readonly hint: string;
}

const WRK: Tool = { command: 'wrk', hint: 'apt-get install -y wrk' };
const H2LOAD: Tool = { command: 'h2load', hint: 'apt-get install -y nghttp2-client' };
const ETCD: Tool = {
  command: 'etcd',
  envVar: 'ORCH_ETCD_BIN',
  fallbacks: ['/usr/bin/etcd', '/usr/local/bin/etcd'],
  hint: 'apt-get install -y etcd-server, or set ORCH_ETCD_BIN',
};
const HAPROXY: Tool = {
  command: 'haproxy',
  envVar: 'ORCH_HAPROXY_BIN',
  fallbacks: ['/usr/sbin/haproxy'],
  hint: 'apt-get install -y haproxy, or set ORCH_HAPROXY_BIN',
};

/** The external tools, by name, for suites that need a tool's path. */
export const TOOLS = { wrk: WRK, h2load: H2LOAD, etcd: ETCD, haproxy: HAPROXY } as const;

/**
 * What each suite of `npm run bench -- <suite>` runs besides Node: checked by the entry point
 * before the suite is even loaded. A suite missing here cannot be run (the entry point's table
 * of suites is keyed by these names).
 */
export const SUITE_TOOLS = {
  storage: [ETCD],
  encoding: [],
  api: [WRK],
  apply: [],
  cel: [],
  authn: [],
  authz: [WRK],
  builtin: [],
  cluster: [WRK, ETCD, HAPROXY],
  crd: [WRK, H2LOAD],
  controllers: [],
} as const satisfies Record<string, readonly Tool[]>;

export type SuiteName = keyof typeof SUITE_TOOLS;

/** Thrown when tools are missing; its message is one line naming each one and how to install it. */
export class MissingToolsError extends Error {
  constructor(readonly missing: readonly Tool[]) {
    super(
      missing
        .map((t) => `${t.command} not found (${t.hint})`)
        .join('; ')
        .replace(/\s*\n\s*/g, ' '),
    );
    this.name = 'MissingToolsError';
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  if (name.includes('/')) return isExecutable(name) ? name : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The path of `tool`'s executable, or undefined when there is none: `$envVar` when set (and
 * nothing else then), else `command` on `env.PATH`, else the first executable fallback.
 */
export function findTool(tool: Tool, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = tool.envVar === undefined ? undefined : env[tool.envVar];
  if (named) return onPath(named, env);
  return onPath(tool.command, env) ?? tool.fallbacks?.find(isExecutable);
}

/** Throws {@link MissingToolsError} naming every tool of `tools` that {@link findTool} cannot find. */
export function checkTools(tools: readonly Tool[], env: NodeJS.ProcessEnv = process.env): void {
  const missing = tools.filter((t) => findTool(t, env) === undefined);
  if (missing.length > 0) throw new MissingToolsError(missing);
}

/** The path of `tool`'s executable; throws {@link MissingToolsError} when there is none. */
export function toolPath(tool: Tool, env: NodeJS.ProcessEnv = process.env): string {
  const path = findTool(tool, env);
  if (path === undefined) throw new MissingToolsError([tool]);
  return path;
}
