import { type ProtoField, SchemaGenError } from './facts.js';

/**
 * Field numbers from a go-to-protobuf `generated.proto`: every top-level `message` and its
 * fields (`optional`/`repeated` scalars and messages, `map<K, V>`), keyed by the OpenAPI
 * definition name of the message (`k8s.io.api.rbac.v1` package → `io.k8s.api.rbac.v1.Role`).
 * Comments are ignored, so no prose is read. Throws `SchemaGenError` naming the line of
 * anything it does not understand inside a message.
 */
export function protoFields(text: string, file = 'generated.proto'): Record<string, Record<string, ProtoField>> {
  const lines = text.split('\n').map((l) => l.replace(/\/\/.*$/, '').trim());
  const pkg = lines.map((l) => /^package\s+([\w.]+)\s*;$/.exec(l)?.[1]).find((p) => p !== undefined);
  if (pkg === undefined) throw new SchemaGenError(`${file}: no package statement`);
  const prefix = pkg.startsWith('k8s.io.') ? `io.k8s.${pkg.slice('k8s.io.'.length)}` : pkg;
  const out: Record<string, Record<string, ProtoField>> = {};
  let current: Record<string, ProtoField> | undefined;
  lines.forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    if (line === '') return;
    const start = /^message\s+(\w+)\s*\{$/.exec(line);
    if (start) {
      if (current) throw new SchemaGenError(`${where}: nested messages are not supported`);
      current = {};
      out[`${prefix}.${start[1]}`] = current;
      return;
    }
    if (line === '}') {
      if (!current) throw new SchemaGenError(`${where}: unbalanced }`);
      current = undefined;
      return;
    }
    if (!current) return;
    const map = /^(map<[\w.]+,\s*[\w.]+>)\s+(\w+)\s*=\s*(\d+)\s*;$/.exec(line);
    const field = /^(optional|repeated|required)\s+([\w.]+)\s+(\w+)\s*=\s*(\d+)\s*;$/.exec(line);
    if (map) current[map[2]] = { number: Number(map[3]), label: 'map', type: map[1] };
    else if (field && field[1] !== 'required') {
      current[field[3]] = { number: Number(field[4]), label: field[1] as 'optional' | 'repeated', type: field[2] };
    } else throw new SchemaGenError(`${where}: not a field: ${line}`);
  });
  if (current) throw new SchemaGenError(`${file}: message not closed`);
  return out;
}
