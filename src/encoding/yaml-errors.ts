/**
 * Rewording of the `yaml` package's syntax errors as go-yaml v2 reports the same problems,
 * since kube-apiserver passes go-yaml's text to clients. go-yaml numbers lines from 1 for
 * scanner errors but from 0 for parser errors, and omits `line N: ` when that number is 0;
 * both quirks are kept. Problems without a known go-yaml equivalent keep the parser's message.
 */
import type { LineCounter, YAMLError } from 'yaml';

type Kind = 'scanner' | 'parser';

function format(kind: Kind, line: number, message: string): string {
  const shown = kind === 'scanner' ? (line > 1 ? line : 0) : line - 1;
  return shown > 0 ? `yaml: line ${shown}: ${message}` : `yaml: ${message}`;
}

/** The 1-based line of the first `:` that starts a mapping value at or after `offset`. */
function nextValueIndicatorLine(text: string, offset: number, lines: LineCounter): number {
  const re = /:(?=[ \t\r\n]|$)/g;
  re.lastIndex = offset;
  const m = re.exec(text);
  return lines.linePos(m ? m.index : offset).line;
}

/** The text of the non-empty line before `line` (1-based), trimmed of its indentation. */
function previousLine(text: string, line: number): { indent: number; content: string } | undefined {
  const all = text.split('\n');
  for (let i = line - 2; i >= 0; i--) {
    if (all[i].trim() === '') continue;
    const content = all[i].trimStart();
    return { indent: all[i].length - content.length, content };
  }
  return undefined;
}

/** go-yaml's message for the first of `errors` in `text`. */
export function yamlErrorMessage(text: string, errors: readonly YAMLError[], lines: LineCounter): string {
  const first = [...errors].sort((a, b) => a.pos[0] - b.pos[0])[0];
  const line = lines.linePos(first.pos[0]).line;
  const msg = first.message.split('\n')[0];
  const codes = new Set(errors.map((e) => e.code));
  switch (first.code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
      return format(
        'scanner',
        nextValueIndicatorLine(text, first.pos[0], lines),
        'mapping values are not allowed in this context',
      );
    case 'MULTILINE_IMPLICIT_KEY':
      if (codes.has('UNEXPECTED_TOKEN')) return format('parser', line, 'did not find expected key');
      return format(
        'scanner',
        nextValueIndicatorLine(text, first.pos[0], lines),
        'mapping values are not allowed in this context',
      );
    case 'TAB_AS_INDENT':
    case 'BAD_SCALAR_START':
      return format('scanner', line, 'found character that cannot start any token');
    case 'MISSING_CHAR':
      if (msg.includes('quote')) {
        return format('scanner', lines.linePos(text.length).line, 'found unexpected end of stream');
      }
      if (msg.includes('}')) return format('parser', line, "did not find expected ',' or '}'");
      if (msg.includes(']')) return format('parser', line, "did not find expected ',' or ']'");
      break;
    case 'BAD_INDENT': {
      if (msg.startsWith('Flow sequence')) return format('parser', line, "did not find expected ',' or ']'");
      if (msg.startsWith('Flow map')) return format('parser', line, "did not find expected ',' or '}'");
      const lineText = text.split('\n')[line - 1] ?? '';
      const indent = lineText.length - lineText.trimStart().length;
      const prev = previousLine(text, line);
      if (prev && prev.indent === indent && prev.content.startsWith('- ')) {
        return format('parser', line, "did not find expected '-' indicator");
      }
      return format('parser', line, 'did not find expected key');
    }
  }
  if (msg.startsWith('Sequence item without - indicator'))
    return format('parser', line, "did not find expected '-' indicator");
  if (msg.startsWith('Implicit map keys need to be followed by map values')) {
    return format('scanner', line, "could not find expected ':'");
  }
  if (msg.startsWith('Block scalar header includes extra characters')) {
    return format('scanner', line, 'did not find expected comment or line break');
  }
  if (msg.startsWith('Unexpected block-seq-ind on same line with key')) {
    return format('scanner', line, 'block sequence entries are not allowed in this context');
  }
  return `yaml: line ${line}: ${msg}`;
}
