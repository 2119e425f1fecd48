/**
 * Go's `encoding/csv` reader with `FieldsPerRecord = -1` (records may differ in length), for files
 * kube reads with it (`--token-auth-file`): comma-separated fields; a field starting with `"` is
 * quoted, may contain commas and newlines, and `""` inside stands for `"`; `\r\n` is read as `\n`;
 * empty lines are skipped; spaces are kept. Errors carry Go's text
 * (`parse error on line 3, column 7: bare " in non-quoted-field`).
 */

/** One record and the line it starts on (1-based). */
export interface CsvRecord {
  readonly line: number;
  readonly fields: readonly string[];
}

export class CsvParseError extends Error {
  constructor(
    readonly startLine: number,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(
      startLine !== line
        ? `record on line ${startLine}; parse error on line ${line}, column ${column}: ${reason}`
        : `parse error on line ${line}, column ${column}: ${reason}`,
    );
    this.name = 'CsvParseError';
  }
}

const BARE_QUOTE = 'bare " in non-quoted-field';
const QUOTE = 'extraneous or missing " in quoted-field';

/** Every record of `text`. @throws CsvParseError at the first malformed field, as Go's reader stops there. */
export function readGoCsv(text: string): CsvRecord[] {
  const lines = text.replaceAll('\r\n', '\n').split('\n');
  // A final newline does not start another (empty) line.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const records: CsvRecord[] = [];
  let li = 0;
  while (li < lines.length) {
    const startLine = li + 1;
    let line = lines[li] as string;
    li++;
    if (line === '') continue;
    const fields: string[] = [];
    let pos = 0;
    let lineNo = startLine;
    for (;;) {
      if (line[pos] !== '"') {
        const comma = line.indexOf(',', pos);
        const field = comma < 0 ? line.slice(pos) : line.slice(pos, comma);
        const quote = field.indexOf('"');
        if (quote >= 0) throw new CsvParseError(startLine, lineNo, pos + quote + 1, BARE_QUOTE);
        fields.push(field);
        if (comma < 0) break;
        pos = comma + 1;
        continue;
      }
      // Quoted field, possibly spanning lines.
      let field = '';
      pos++;
      for (;;) {
        const q = line.indexOf('"', pos);
        if (q < 0) {
          field += line.slice(pos);
          if (li >= lines.length) {
            // Go reports the position just past the end of the input.
            throw new CsvParseError(startLine, lineNo, line.length + 1, QUOTE);
          }
          field += '\n';
          line = lines[li] as string;
          li++;
          lineNo++;
          pos = 0;
          continue;
        }
        field += line.slice(pos, q);
        if (line[q + 1] === '"') {
          field += '"';
          pos = q + 2;
          continue;
        }
        pos = q + 1;
        break;
      }
      if (pos < line.length && line[pos] !== ',') throw new CsvParseError(startLine, lineNo, pos + 1, QUOTE);
      fields.push(field);
      if (pos >= line.length) break;
      pos++;
      if (pos === line.length) {
        fields.push('');
        break;
      }
    }
    records.push({ line: startLine, fields });
  }
  return records;
}
