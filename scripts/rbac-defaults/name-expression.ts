/**
 * Turns a name spelled as kube-apiserver spells it (the `k8s.io` profile) into TypeScript that
 * builds it from an injected `ApiDomain` named `d`, so that the generated module holds no
 * domain-derived literal and the `k8s.io` profile yields kube's name exactly.
 *
 *   `apps`                                  → `'apps'`
 *   `rbac.authorization.k8s.io`             → `d.group('rbac.authorization')`
 *   `rbac.authorization.kubernetes.io/autoupdate` → `d.key('rbac.authorization', 'autoupdate')`
 *   `system:kube-scheduler`                 → `d.systemUser('scheduler')`
 *   `kube-system`                           → `d.systemNamespace`
 *   `kube-public`                           → `d.publicNamespace`
 *   `kube-dns`                              → `d.componentName('dns')`
 */

/** A name the generator cannot map (it would leave a domain-derived literal behind). */
export class NameMappingError extends Error {}

const TOKEN =
  /\bkube-system\b|\bkube-public\b|system:kube-([a-z0-9-]+)|([a-z0-9-]+(?:\.[a-z0-9-]+)*)\.k8s\.io|(?:([a-z0-9-]+(?:\.[a-z0-9-]+)*)\.)?kubernetes\.io\/|\bkube-([a-z0-9-]+)/g;

/** What must not survive outside a mapped token. */
const LEFTOVER = /k8s\.io|kubernetes|\bkube-|\borch\b|orch\.io/;

const quote = (s: string): string => {
  if (/['\\`$\n]/.test(s)) throw new NameMappingError(`unsupported character in ${JSON.stringify(s)}`);
  return `'${s}'`;
};

type Part = { literal: string } | { expr: string };

function parts(name: string): Part[] {
  const out: Part[] = [];
  let last = 0;
  for (const m of name.matchAll(TOKEN)) {
    const index = m.index ?? 0;
    if (index > last) out.push({ literal: name.slice(last, index) });
    const [whole, systemComponent, groupBase, keyPrefix, component] = m;
    if (whole === 'kube-system') out.push({ expr: 'd.systemNamespace' });
    else if (whole === 'kube-public') out.push({ expr: 'd.publicNamespace' });
    else if (systemComponent !== undefined) out.push({ expr: `d.systemUser(${quote(systemComponent)})` });
    else if (groupBase !== undefined) out.push({ expr: `d.group(${quote(groupBase)})` });
    else if (component !== undefined) out.push({ expr: `d.componentName(${quote(component)})` });
    else out.push({ expr: `d.key(${quote(keyPrefix ?? '')}, '')` });
    last = index + whole.length;
  }
  if (last < name.length) out.push({ literal: name.slice(last) });
  return out;
}

/** The TypeScript expression that builds `name` from `d: ApiDomain`. */
export function nameExpression(name: string): string {
  const ps = parts(name);
  for (const p of ps) {
    if ('literal' in p && LEFTOVER.test(p.literal)) {
      throw new NameMappingError(`${JSON.stringify(name)}: no mapping for ${JSON.stringify(p.literal)}`);
    }
  }
  // A key followed by a plain name reads better as one call: d.key('', 'bootstrapping').
  const merged: Part[] = [];
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i];
    const next = ps[i + 1];
    if ('expr' in p && p.expr.endsWith(", '')") && p.expr.startsWith('d.key(') && next && 'literal' in next) {
      merged.push({ expr: `${p.expr.slice(0, -3)}${quote(next.literal)})` });
      i++;
    } else merged.push(p);
  }
  if (merged.length === 0) return quote('');
  if (merged.length === 1) {
    const only = merged[0];
    return 'expr' in only ? only.expr : quote(only.literal);
  }
  for (const p of merged) if ('literal' in p) quote(p.literal);
  return `\`${merged.map((p) => ('expr' in p ? `\${${p.expr}}` : p.literal)).join('')}\``;
}
