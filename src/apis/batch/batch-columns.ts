/**
 * kube's printer columns of Jobs and CronJobs (`pkg/printers/internalversion/printers.go`, v1.32),
 * with kube's descriptions. The server renders every column, wide ones included.
 */
import { CONTAINERS_COLUMN, containerCells, formatLabelSelector, IMAGES_COLUMN } from '../apps/workload-columns.js';
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import { AGE_COLUMN, column, NAME_COLUMN, objectName, valueAt } from '../table/column-helpers.js';
import { humanDuration, timestampMillis, translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);
const age = (o: ApiObject, now: Date): string =>
  translateTimestampSince(valueAt(o, 'metadata', 'creationTimestamp'), now);

const SELECTOR_COLUMN = column(
  'Selector',
  'string',
  'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
  { priority: 1 },
);

/** kube's `hasJobCondition`: the first condition of the type decides. */
function hasCondition(job: ApiObject, type: string): boolean {
  const conditions = obj(job.status).conditions;
  if (!Array.isArray(conditions)) return false;
  const c = conditions.find((x) => obj(x).type === type);
  return c !== undefined && obj(c).status === 'True';
}

function jobStatus(job: ApiObject): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp) return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function completions(job: ApiObject): string {
  const spec = obj(job.spec);
  const succeeded = int(obj(job.status).succeeded);
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = int(spec.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function duration(job: ApiObject, now: Date): string {
  const status = obj(job.status);
  const start = timestampMillis(status.startTime);
  if (start === undefined) return '';
  const end = timestampMillis(status.completionTime);
  return humanDuration((end ?? now.getTime()) - start);
}

/** Job: `Name`, `Status`, `Completions`, `Duration`, `Age`; wide `Containers`, `Images`, `Selector`. */
export function jobTableColumns(): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Status', 'string', 'Status of the job.'),
      column(
        'Completions',
        'string',
        'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.',
      ),
      column('Duration', 'string', 'Time required to complete the job.'),
      AGE_COLUMN,
      CONTAINERS_COLUMN,
      IMAGES_COLUMN,
      SELECTOR_COLUMN,
    ]),
    cells: (job: ApiObject, now: Date) => [
      objectName(job),
      jobStatus(job),
      completions(job),
      duration(job, now),
      age(job, now),
      ...containerCells(obj(job.spec).template),
      formatLabelSelector(obj(job.spec).selector),
    ],
  });
}

/** CronJob: `Name`, `Schedule`, `Timezone`, `Suspend`, `Active`, `Last Schedule`, `Age`; wide `Containers`, `Images`, `Selector`. */
export function cronJobTableColumns(): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
      column(
        'Timezone',
        'string',
        'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones',
      ),
      column(
        'Suspend',
        'boolean',
        'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.',
      ),
      column('Active', 'integer', 'A list of pointers to currently running jobs.'),
      column('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
      AGE_COLUMN,
      CONTAINERS_COLUMN,
      IMAGES_COLUMN,
      SELECTOR_COLUMN,
    ]),
    cells: (cj: ApiObject, now: Date) => {
      const spec = obj(cj.spec);
      const status = obj(cj.status);
      const jobSpec = obj(obj(spec.jobTemplate).spec);
      const last = status.lastScheduleTime;
      return [
        objectName(cj),
        typeof spec.schedule === 'string' ? spec.schedule : '',
        typeof spec.timeZone === 'string' ? spec.timeZone : '<none>',
        typeof spec.suspend === 'boolean' ? (spec.suspend ? 'True' : 'False') : '<unset>',
        Array.isArray(status.active) ? status.active.length : 0,
        typeof last === 'string' ? translateTimestampSince(last, now) : '<none>',
        age(cj, now),
        ...containerCells(jobSpec.template),
        formatLabelSelector(jobSpec.selector),
      ];
    },
  });
}
