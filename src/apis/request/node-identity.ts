import type { UserInfo } from './user-info.js';

/** The group every node (kubelet) credential carries. */
export const NODES_GROUP = 'system:nodes';
/** Node user names are `system:node:<node name>`. */
export const NODE_USER_PREFIX = 'system:node:';

/** Who a node is: `isNode` for a node identity; `name` empty when it names no node. */
export interface NodeIdentity {
  readonly isNode: boolean;
  readonly name: string;
}

const NOT_A_NODE: NodeIdentity = Object.freeze({ isNode: false, name: '' });

/**
 * kube's default node identifier: a user is a node when its name starts with `system:node:` and it
 * is in the `system:nodes` group; the rest of the name is the node's (possibly empty, which the
 * node rules refuse).
 */
export function nodeIdentity(user: UserInfo): NodeIdentity {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return NOT_A_NODE;
  return { isNode: true, name: user.name.slice(NODE_USER_PREFIX.length) };
}
