import { compareGoStrings } from '../../util/go-strings.js';
/** A `NamespaceCondition`. */
export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** The condition types the namespace controller maintains, in kube's order. */
export const NAMESPACE_CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

type ConditionType = (typeof NAMESPACE_CONDITION_TYPES)[number];

const OK: Record<ConditionType, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: {
    reason: 'ResourcesDiscovered',
    message: 'All resources successfully discovered',
  },
  NamespaceDeletionGroupVersionParsingFailure: {
    reason: 'ParsedGroupVersions',
    message: 'All legacy kube types successfully parsed',
  },
  NamespaceDeletionContentFailure: {
    reason: 'ContentDeleted',
    message: 'All content successfully deleted, may be waiting on finalization',
  },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
};

/** What one pass over a terminating namespace's content found. */
export interface ContentTotals {
  /** `<resource>.<group>` (core: `<resource>.`) → objects remaining. */
  readonly remainingByResource: ReadonlyMap<string, number>;
  /** finalizer → objects remaining that carry it. */
  readonly remainingByFinalizer: ReadonlyMap<string, number>;
  /** Errors deleting or listing content, one message per resource. */
  readonly errors: readonly string[];
}

/** The failing conditions of one pass, with kube's reasons and messages. */
export function failingConditions(t: ContentTotals, now: string): NamespaceCondition[] {
  const out: NamespaceCondition[] = [];
  if (t.errors.length > 0) {
    const msgs = [...t.errors].sort(compareGoStrings);
    out.push({
      type: 'NamespaceDeletionContentFailure',
      status: 'True',
      lastTransitionTime: now,
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
    });
  }
  const resources = [...t.remainingByResource]
    .filter(([, n]) => n > 0)
    .map(([gr, n]) => `${gr} has ${n} resource instances`)
    .sort(compareGoStrings);
  if (resources.length > 0) {
    out.push({
      type: 'NamespaceContentRemaining',
      status: 'True',
      lastTransitionTime: now,
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${resources.join(', ')}`,
    });
  }
  const finalizers = [...t.remainingByFinalizer]
    .filter(([, n]) => n > 0)
    .map(([f, n]) => `${f} in ${n} resource instances`)
    .sort(compareGoStrings);
  if (finalizers.length > 0) {
    out.push({
      type: 'NamespaceFinalizersRemaining',
      status: 'True',
      lastTransitionTime: now,
      reason: 'SomeFinalizerRemain',
      message: `Some finalizers are remaining: ${finalizers.join(', ')}`,
    });
  }
  return out;
}

/**
 * kube's `updateConditions`: every maintained type is present afterwards, the failing ones as
 * given and the rest in their "ok" form (status False); `lastTransitionTime` changes only when a
 * condition's status does. Mutates `current`; returns whether anything changed.
 */
export function updateConditions(current: NamespaceCondition[], failing: NamespaceCondition[], now: string): boolean {
  let changed = false;
  for (const type of NAMESPACE_CONDITION_TYPES) {
    const next = failing.find((c) => c.type === type) ?? {
      type,
      status: 'False' as const,
      lastTransitionTime: now,
      ...OK[type],
    };
    const old = current.find((c) => c.type === type);
    if (!old) {
      current.push(next);
      changed = true;
    } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
      if (old.status !== next.status) old.lastTransitionTime = now;
      old.status = next.status;
      old.reason = next.reason;
      old.message = next.message;
      changed = true;
    }
  }
  return changed;
}
