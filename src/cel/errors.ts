/**
 * The errors of the CEL layer. Messages follow cel-go and kube-apiserver, whose wording clients
 * and users see in validation failures: `compilation failed: ERROR: <input>:1:5: undeclared
 * reference to 'x' (in container '')` followed by the source line and a caret.
 */

/** One problem found compiling an expression, at a 1-based line and column (in code points). */
export interface CelIssue {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** An expression failed to parse or type-check. */
export class CelCompileError extends Error {
  override readonly name = 'CelCompileError';

  constructor(
    readonly expression: string,
    readonly issues: readonly CelIssue[],
    options?: ErrorOptions,
  ) {
    super(`compilation failed: ${formatIssues(expression, issues)}`, options);
  }
}

/**
 * An evaluation failed (no such key, overflow, division by zero, a value of the wrong type, ...).
 * `code` is the engine's error code, or `invalid_data` when an input does not match its declared
 * type.
 */
export class CelEvaluationError extends Error {
  override readonly name = 'CelEvaluationError';

  constructor(
    message: string,
    readonly code: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const WIDE_DOT = '\uff0e';
const WIDE_CARET = '\uff3e';

/**
 * cel-go's `Issues.String()`: each issue as `ERROR: <input>:line:column: message`, then the
 * source line and a marker line whose dots stand for the code points before the column (a
 * full-width dot for a character wider than one byte in UTF-8).
 */
function formatIssues(expression: string, issues: readonly CelIssue[]): string {
  const lines = expression.split('\n');
  return issues
    .map((issue) => {
      let out = `ERROR: <input>:${issue.line}:${issue.column}: ${issue.message}`;
      const line = lines[issue.line - 1];
      if (line === undefined) return out;
      const snippet = line.replaceAll('\t', ' ');
      const chars = [...snippet];
      let marker = '';
      for (let i = 0; i < issue.column - 1 && i < chars.length; i++) marker += isWide(chars[i]) ? WIDE_DOT : '.';
      const at = chars[issue.column - 1];
      marker += at !== undefined && isWide(at) ? WIDE_CARET : '^';
      out += `\n | ${snippet}\n | ${marker}`;
      return out;
    })
    .join('\n');
}

function isWide(char: string): boolean {
  return (char.codePointAt(0) ?? 0) > 0x7f;
}
