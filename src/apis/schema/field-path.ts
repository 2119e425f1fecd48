/**
 * Field paths in the form kube-apiserver prints them in validation errors:
 * `metadata.name`, `spec.items[0]`, `data[key]`.
 */

/** `base.name`, or `name` at the root. */
export function childPath(base: string, name: string): string {
  return base ? `${base}.${name}` : name;
}

/** `base[index]`. */
export function indexPath(base: string, index: number): string {
  return `${base}[${index}]`;
}

/** `base[key]`: how hand-written validation names a map entry (kube's `field.Path.Key`). */
export function keyPath(base: string, key: string): string {
  return `${base}[${key}]`;
}
