import { SUITE_TOOLS, type SuiteName } from './tools.js';

/** What the entry point passes every suite. */
export interface BenchOptions {
  /**
   * `--quick`: smaller sizes and shorter runs, for a developer's own before/after comparison.
   * Figures of a quick run are not comparable with a full run's.
   */
  readonly quick: boolean;
}

/** The parsed command line of `npm run bench -- <suite> [--quick]`, or why it is not one. */
export type BenchArgs = { suite: SuiteName; options: BenchOptions } | { usage: string };

const USAGE = `usage: npm run bench -- <${Object.keys(SUITE_TOOLS).join('|')}> [--quick]`;

/** Parses the arguments after the script name (`process.argv.slice(2)`). */
export function parseBenchArgs(args: readonly string[]): BenchArgs {
  const flags = args.filter((a) => a.startsWith('-'));
  const names = args.filter((a) => !a.startsWith('-'));
  const unknown = flags.filter((f) => f !== '--quick');
  if (unknown.length > 0) return { usage: `unknown option ${unknown.join(' ')}; ${USAGE}` };
  const [name, ...extra] = names;
  if (name === undefined || extra.length > 0 || !Object.hasOwn(SUITE_TOOLS, name)) return { usage: USAGE };
  return { suite: name as SuiteName, options: { quick: flags.includes('--quick') } };
}

/**
 * The one line printed when a suite fails: `bench <suite>: <message>`, the message's line breaks
 * folded (a server's output quoted in an error stays on the line) and cut at `max` characters.
 */
export function failureLine(suite: string, err: unknown, max = 2000): string {
  const message = (err instanceof Error ? err.message : String(err)).trim().replace(/\s*\n\s*/g, ' ⏎ ');
  const cut = message.length > max ? `${message.slice(0, max)}… (BENCH_DEBUG=1 prints all)` : message;
  return `bench ${suite}: ${cut}`;
}
