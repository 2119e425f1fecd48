/**
 * Storage keys: `<prefix>/<group>/<resource>/[<namespace>/]<name>`, with `core` as the group
 * segment of the legacy core group. Prefixes handed to {@link Store.range} and
 * {@link Store.watch} always end in `/`, so `/a/b/` never matches `/a/bc`.
 */
export interface KeyScheme {
  /** The configured prefix, without a trailing slash (default `/registry`). */
  readonly prefix: string;
}

export function keyScheme(prefix = '/registry'): KeyScheme {
  const trimmed = prefix.replace(/\/+$/, '');
  if (!trimmed.startsWith('/')) throw new Error(`storage key prefix must start with "/": ${prefix}`);
  return { prefix: trimmed };
}

export function resourcePrefix(scheme: KeyScheme, group: string, resource: string): string {
  return `${scheme.prefix}/${group || 'core'}/${resource}/`;
}

export function namespacePrefix(scheme: KeyScheme, group: string, resource: string, namespace: string): string {
  return `${resourcePrefix(scheme, group, resource)}${namespace}/`;
}

export function objectKey(
  scheme: KeyScheme,
  ref: { group: string; resource: string; namespace?: string; name: string },
): string {
  const base = resourcePrefix(scheme, ref.group, ref.resource);
  return ref.namespace ? `${base}${ref.namespace}/${ref.name}` : `${base}${ref.name}`;
}
