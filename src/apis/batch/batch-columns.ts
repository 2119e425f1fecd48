/**
 * kube's printer columns of Jobs and CronJobs (`pkg/printers/internalversion/printers.go`, v1.32),
 * with descriptions in Orch's own words. The server renders every column, wide ones included.
 */
import {
  CONTAINERS_COLUMN,
  containerCells,
  containerColumnSpecs,
  formatLabelSelector,
  IMAGES_COLUMN,
} from '../apps/workload-columns.js';
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import { AGE_COLUMN, column, NAME_COLUMN, objectName, valueAt } from '../table/column-helpers.js';
import { AGE_SPEC, columnSpecOf, declarativeTableColumns } from '../table/declarative-columns.js';
import { humanDuration, timestampMillis, translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);
const age = (o: ApiObject, now: Date): string =>
  translateTimestampSince(valueAt(o, 'metadata', 'creationTimestamp'), now);

const SELECTOR_COLUMN = column('Selector', 'string', 'The label selector that picks the pods of the job.', {
  priority: 1,
});

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
      column('Status', 'string', 'Whether the job is running, complete, failed, suspended or terminating.'),
      column('Completions', 'string', 'Succeeded pods out of the completions the job needs.'),
      column('Duration', 'string', 'How long the job ran, or has been running so far.'),
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
  const jobSpec = (cj: ApiObject): Obj => obj(obj(obj(cj.spec).jobTemplate).spec);
  return declarativeTableColumns([
    {
      name: 'Schedule',
      type: 'string',
      description: 'The cron expression that says when jobs are created.',
      jsonPath: '.spec.schedule',
      zero: '',
    },
    {
      name: 'Timezone',
      type: 'string',
      description: "The time zone the schedule is read in; the controller manager's own when unset.",
      jsonPath: '.spec.timeZone',
      zero: '<none>',
    },
    {
      name: 'Suspend',
      type: 'boolean',
      description: 'Whether new runs are paused; running jobs are not affected.',
      cell: (cj) => {
        const suspend = obj(cj.spec).suspend;
        return typeof suspend === 'boolean' ? (suspend ? 'True' : 'False') : '<unset>';
      },
    },
    {
      name: 'Active',
      type: 'integer',
      description: 'The number of jobs of the cron job that are running.',
      cell: (cj) => {
        const active = obj(cj.status).active;
        return Array.isArray(active) ? active.length : 0;
      },
    },
    {
      name: 'Last Schedule',
      type: 'string',
      description: 'How long ago a job was last scheduled.',
      cell: (cj, now) => {
        const last = obj(cj.status).lastScheduleTime;
        return typeof last === 'string' ? translateTimestampSince(last, now) : '<none>';
      },
    },
    AGE_SPEC,
    ...containerColumnSpecs((cj) => jobSpec(cj).template),
    { ...columnSpecOf(SELECTOR_COLUMN), cell: (cj) => formatLabelSelector(jobSpec(cj).selector) },
  ]);
}
