import type { UserInfo } from './user-info.js';

/** The group of node agents (kubelets). */
export const NODES_GROUP = 'system:nodes';
/** Node agents' user names are this prefix and the node's name. */
export const NODE_USER_PREFIX = 'system:node:';

/**
 * kube's default node identifier: a user named `system:node:<name>` in group `system:nodes` is
 * the node `<name>` ('' when the name after the prefix is empty: a node that cannot be told);
 * anyone else is no node (undefined).
 */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.name.startsWith(NODE_USER_PREFIX)) return undefined;
  const groups = user.groups;
  for (let i = 0; i < groups.length; i++) {
    if (groups[i] === NODES_GROUP) return user.name.slice(NODE_USER_PREFIX.length);
  }
  return undefined;
}
