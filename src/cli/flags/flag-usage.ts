import type { FlagTable } from './flag-parser.js';
import type { FlagSpec } from './flag-spec.js';

/**
 * Flag lines in pflag's layout (unwrapped), sorted by name and aligned:
 * `      --secure-port int   The port ... (default 6443)`.
 */
export function formatFlagLines(specs: readonly FlagSpec<unknown>[]): string {
  const rows = [...specs]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((spec) => {
      let left = spec.shorthand ? `  -${spec.shorthand}, --${spec.name}` : `      --${spec.name}`;
      if (spec.typeName) left += ` ${spec.typeName}`;
      if (spec.impliedValue !== undefined && spec.impliedValue !== 'true') left += `[=${spec.impliedValue}]`;
      const shownDefault = spec.formatDefault(spec.defaultValue);
      const right = shownDefault ? `${spec.usage} (default ${shownDefault})` : spec.usage;
      return { left, right };
    });
  const width = Math.max(0, ...rows.map((r) => r.left.length));
  // Continuation lines of a multi-line usage start in the usage column, as pflag indents them.
  const indent = `\n${' '.repeat(width + 3)}`;
  return rows.map((r) => `${r.left.padEnd(width)}   ${r.right.replaceAll('\n', indent)}\n`).join('');
}

/**
 * Full help text for a command: usage line, then one block per `section` in first-seen order
 * (`<Section> flags:`), as kube components print theirs. Flags without a section go under `Generic`.
 */
export function formatHelp(options: { command: string; description?: string; table: FlagTable }): string {
  const sections = new Map<string, FlagSpec<unknown>[]>();
  for (const spec of Object.values(options.table)) {
    const title = spec.section ?? 'Generic';
    const list = sections.get(title) ?? [];
    list.push(spec);
    sections.set(title, list);
  }
  let out = options.description ? `${options.description}\n\n` : '';
  out += `Usage:\n  ${options.command} [flags]\n`;
  for (const [title, specs] of sections) out += `\n${title} flags:\n\n${formatFlagLines(specs)}`;
  out += `\nGlobal flags:\n\n${formatFlagLines([helpSpec(options.command)])}`;
  return out;
}

function helpSpec(command: string): FlagSpec<boolean> {
  return {
    name: 'help',
    shorthand: 'h',
    usage: `help for ${command}`,
    typeName: '',
    defaultValue: false,
    impliedValue: 'true',
    parse: () => true,
    formatDefault: () => '',
  };
}
