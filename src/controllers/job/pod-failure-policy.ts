/**
 * The rules of `spec.podFailurePolicy` applied to a failed pod, as kube-controller-manager
 * v1.32 applies them: the first rule whose `onExitCodes` (a non-zero exit code of a terminated
 * container, optionally of one named container, `In` / `NotIn` the values) or `onPodConditions`
 * (a condition of the pod with the pattern's type and status) matches decides: `FailJob` fails
 * the Job with a message naming the rule, `Ignore` does not count the failure, `Count` counts
 * it. `FailIndex` (backoff limit per index) is not supported: it counts as `Count`.
 */
import type { ApiObject } from '../../apis/object.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface PodFailureMatch {
  /** The Job failure message when a FailJob rule matched. */
  readonly failJobMessage?: string;
  /** Whether the failure counts towards the backoff limit. */
  readonly countFailed: boolean;
  /** The matching rule's action, when one matched. */
  readonly action?: string;
}

function matchingExitCode(pod: ApiObject, req: Obj): { name: string; code: number } | undefined {
  const values = list(req.values).filter((v): v is number => typeof v === 'number');
  const status = obj(pod.status);
  for (const cs of [...list(status.containerStatuses), ...list(status.initContainerStatuses)]) {
    const c = obj(cs);
    const terminated = obj(obj(c.state).terminated);
    const code = terminated.exitCode;
    if (typeof code !== 'number' || code === 0) continue;
    if (typeof req.containerName === 'string' && req.containerName !== c.name) continue;
    const inValues = values.includes(code);
    if ((req.operator === 'In' && inValues) || (req.operator === 'NotIn' && !inValues))
      return { name: String(c.name ?? ''), code };
  }
  return undefined;
}

function matchingCondition(pod: ApiObject, patterns: unknown[]): string | undefined {
  const conditions = list(obj(pod.status).conditions).map(obj);
  for (const p of patterns.map(obj)) {
    const found = conditions.find((c) => c.type === p.type && c.status === (p.status ?? 'True'));
    if (found) return String(found.type);
  }
  return undefined;
}

/** The decision of `policy` for the failed `pod`; no matching rule counts the failure. */
export function matchPodFailurePolicy(policy: unknown, pod: ApiObject): PodFailureMatch {
  const ns = pod.metadata.namespace ?? '';
  const name = pod.metadata.name ?? '';
  const rules = list(obj(policy).rules).map(obj);
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    const action = String(rule.action ?? '');
    let message: string | undefined;
    if (rule.onExitCodes !== undefined && rule.onExitCodes !== null) {
      const m = matchingExitCode(pod, obj(rule.onExitCodes));
      if (m)
        message = `Container ${m.name} for pod ${ns}/${name} failed with exit code ${m.code} matching ${action} rule at index ${i}`;
    } else if (Array.isArray(rule.onPodConditions)) {
      const type = matchingCondition(pod, rule.onPodConditions);
      if (type) message = `Pod ${ns}/${name} has condition ${type} matching ${action} rule at index ${i}`;
    }
    if (message === undefined) continue;
    if (action === 'FailJob') return { failJobMessage: message, countFailed: true, action };
    if (action === 'Ignore') return { countFailed: false, action };
    return { countFailed: true, action };
  }
  return { countFailed: true };
}
