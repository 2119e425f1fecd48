import { alwaysAllow, alwaysDeny } from './always.js';
import type { Authorizer } from './authorizer.js';
import { privilegedGroups } from './privileged-groups.js';
import { unionAuthorizer } from './union-authorizer.js';

/** The `--authorization-mode` values this server implements. */
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];
/** Modes of the access-control spec that are not built yet: named, but refused at start-up. */
const PLANNED_MODES = new Set<string>();

export class AuthorizationModeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthorizationModeError';
  }
}

/**
 * Checks a `--authorization-mode` list: at least one mode, each known and given once. Returns
 * every problem (empty when valid), worded like kube-apiserver's option validation.
 */
export function validateAuthorizationModes(modes: readonly string[]): string[] {
  const errs: string[] = [];
  if (modes.length === 0) errs.push('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const m of modes) {
    if (PLANNED_MODES.has(m)) errs.push(`authorization-mode ${JSON.stringify(m)} is not supported by this server yet`);
    else if (!(AUTHORIZATION_MODES as readonly string[]).includes(m)) {
      errs.push(
        `authorization-mode ${JSON.stringify(m)} is not a valid mode (valid modes: ${AUTHORIZATION_MODES.join(', ')})`,
      );
    }
    if (seen.has(m)) errs.push(`authorization-mode ${JSON.stringify(m)} has mode specified more than once`);
    seen.add(m);
  }
  return errs;
}

/**
 * The authorizer of a mode list: `system:masters` first (it bypasses every module), then each
 * mode in the order given (`RBAC` is `modules.rbac`, `Node` is `modules.node`, `Webhook` is `modules.webhook`) (a list starting with `AlwaysAllow` is `AlwaysAllow` alone). @throws AuthorizationModeError listing every problem of the list.
 */
export function buildAuthorizer(modes: readonly string[], modules: AuthorizerModules = {}): Authorizer {
  const errs = validateAuthorizationModes(modes);
  if (modes.includes('RBAC') && !modules.rbac) errs.push('authorization-mode "RBAC" needs the RBAC authorizer');
  if (modes.includes('ABAC') && !modules.abac)
    errs.push("authorization-mode ABAC's authorization policy file not passed");
  if (modes.includes('Node') && !modules.node) errs.push('authorization-mode "Node" needs the Node authorizer');
  if (modes.includes('Webhook') && !modules.webhook) {
    errs.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (errs.length > 0) throw new AuthorizationModeError(errs.join('; '));
  // A first AlwaysAllow decides every request: the modules after it are never asked.
  if (modes[0] === 'AlwaysAllow') return alwaysAllow;
  const chain: Authorizer[] = [privilegedGroups()];
  for (const m of modes as readonly AuthorizationMode[]) {
    if (m === 'AlwaysAllow') chain.push(alwaysAllow);
    else if (m === 'AlwaysDeny') chain.push(alwaysDeny);
    else if (m === 'ABAC') chain.push(modules.abac as Authorizer);
    else if (m === 'Node') chain.push(modules.node as Authorizer);
    else if (m === 'Webhook') chain.push(modules.webhook as Authorizer);
    else chain.push(modules.rbac as Authorizer);
  }
  return unionAuthorizer(chain);
}

/**
 * The modules behind modes that need state of the server (RBAC reads roles and bindings, Node
 * its graph of pods and volumes).
 */
export interface AuthorizerModules {
  readonly rbac?: Authorizer;
  /** `ABAC`: the policies of `--authorization-policy-file`. */
  readonly abac?: Authorizer;
  readonly node?: Authorizer;
  /** `Webhook`: the authorizer of `--authorization-webhook-config-file`. */
  readonly webhook?: Authorizer;
}
