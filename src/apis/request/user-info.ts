/** Identity of an authenticated (or anonymous) caller, as in `user.Info` of kube-apiserver. */
export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** Well-known user and group names. */
export const ANONYMOUS_USER = 'system:anonymous';
export const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
export const AUTHENTICATED_GROUP = 'system:authenticated';
/** Members of this group pass every authorizer (kube's `system:masters`). */
export const PRIVILEGED_GROUP = 'system:masters';

/**
 * The identity of an in-process controller: kube-controller-manager's controllers run as the
 * service account `system:serviceaccount:<system namespace>:<controller name>` with
 * `--use-service-account-credentials`, which lets each hold exactly its own role.
 */
export function controllerUser(controllerName: string, namespace: string): UserInfo {
  return {
    name: `system:serviceaccount:${namespace}:${controllerName}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, AUTHENTICATED_GROUP],
  };
}
