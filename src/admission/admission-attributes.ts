import type { ApiObject } from '../apis/object.js';
import type { WarningSink } from '../apis/request/request-context.js';
import type { UserInfo } from '../apis/request/user-info.js';

/** The operation being admitted, as kube's admission names it. */
export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/**
 * What an admission plugin sees of a write: the kind and resource (with sub-resource), where
 * (namespace, name), the operation, the new object (absent for DELETE and CONNECT) and the old
 * one (absent for CREATE), who asks, whether it is a dry run, and the operation's options
 * (`CreateOptions`, `UpdateOptions`, `DeleteOptions`). Mutating plugins may change `object` in
 * place; validating plugins must not.
 */
export interface AdmissionAttributes {
  readonly kind: { readonly group: string; readonly version: string; readonly kind: string };
  readonly resource: { readonly group: string; readonly version: string; readonly resource: string };
  /** Empty for the main resource. */
  readonly subresource: string;
  /** The object's namespace; empty for cluster-scoped kinds. */
  readonly namespace: string;
  readonly name: string;
  readonly operation: Operation;
  readonly object: ApiObject | undefined;
  readonly oldObject: ApiObject | undefined;
  readonly user: UserInfo;
  readonly dryRun: boolean;
  readonly options: Readonly<Record<string, unknown>> | undefined;
  /** Warnings for the client (`Warning` headers), e.g. about deprecated fields. */
  readonly warnings: WarningSink;
}
