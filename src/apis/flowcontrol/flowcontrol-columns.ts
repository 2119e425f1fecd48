import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import {
  AGE_COLUMN,
  column,
  describeField,
  NAME_COLUMN,
  objectName,
  stringAt,
  valueAt,
} from '../table/column-helpers.js';
import { translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';

function age(obj: ApiObject, now: Date): string {
  return translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now);
}

function numberAt(obj: unknown, ...path: string[]): number {
  const v = valueAt(obj, ...path);
  return typeof v === 'number' ? v : 0;
}

/**
 * kube's FlowSchema printer: `Name`, `PriorityLevel`, `MatchingPrecedence`, `DistinguisherMethod`
 * (`<none>` when unset), `Age`, `MissingPL` (the status of the `Dangling` condition, `?` when
 * there is none). `schema` is the FlowSchema schema (descriptions).
 */
export function flowSchemaTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column(
        'PriorityLevel',
        'string',
        describeField(schema, 'spec', 'priorityLevelConfiguration', 'name') ||
          'The priority level requests matching the schema are assigned to.',
      ),
      column(
        'MatchingPrecedence',
        'string',
        describeField(schema, 'spec', 'matchingPrecedence') ||
          'The order in which flow schemas are matched (lower first).',
      ),
      column(
        'DistinguisherMethod',
        'string',
        describeField(schema, 'spec', 'distinguisherMethod') || 'How requests are divided into flows.',
      ),
      AGE_COLUMN,
      column('MissingPL', 'string', 'Whether the named priority level is missing or broken.'),
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const conditions = valueAt(obj, 'status', 'conditions');
      const dangling = Array.isArray(conditions)
        ? conditions.find((c) => stringAt(c, 'type') === 'Dangling')
        : undefined;
      return [
        objectName(obj),
        stringAt(obj, 'spec', 'priorityLevelConfiguration', 'name'),
        numberAt(obj, 'spec', 'matchingPrecedence'),
        stringAt(obj, 'spec', 'distinguisherMethod', 'type') || '<none>',
        age(obj, now),
        dangling ? stringAt(dangling, 'status') : '?',
      ];
    },
  });
}

/**
 * kube's PriorityLevelConfiguration printer: `Name`, `Type`, `NominalConcurrencyShares`,
 * `Queues`, `HandSize`, `QueueLengthLimit` (`<none>` where the level is not limited or does not
 * queue), `Age`. `schema` is the PriorityLevelConfiguration schema (descriptions).
 */
export function priorityLevelTableColumns(schema: Schema): TableColumns {
  const limited = (...path: string[]) => describeField(schema, 'spec', 'limited', ...path);
  const queuing = (field: string) => limited('limitResponse', 'queuing', field);
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column(
        'Type',
        'string',
        describeField(schema, 'spec', 'type') || 'Whether requests of the level are Exempt or Limited.',
      ),
      column(
        'NominalConcurrencyShares',
        'string',
        limited('nominalConcurrencyShares') || 'The share of the server concurrency limit of the level.',
      ),
      column('Queues', 'string', queuing('queues') || 'The number of queues of the level.'),
      column('HandSize', 'string', queuing('handSize') || 'The number of queues a flow is shuffle-sharded to.'),
      column('QueueLengthLimit', 'string', queuing('queueLengthLimit') || 'The number of requests a queue may hold.'),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const lim = valueAt(obj, 'spec', 'limited');
      const q = valueAt(lim, 'limitResponse', 'queuing');
      const hasLimited = lim !== undefined && lim !== null;
      const hasQueuing = q !== undefined && q !== null;
      return [
        objectName(obj),
        stringAt(obj, 'spec', 'type'),
        hasLimited ? numberAt(lim, 'nominalConcurrencyShares') : '<none>',
        hasQueuing ? numberAt(q, 'queues') : '<none>',
        hasQueuing ? numberAt(q, 'handSize') : '<none>',
        hasQueuing ? numberAt(q, 'queueLengthLimit') : '<none>',
        age(obj, now),
      ];
    },
  });
}
