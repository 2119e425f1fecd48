import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { describeField, stringAt, valueAt } from '../table/column-helpers.js';
import { AGE_SPEC, declarativeTableColumns } from '../table/declarative-columns.js';
import type { TableColumns } from '../table/table-types.js';

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
  return declarativeTableColumns([
    {
      name: 'PriorityLevel',
      type: 'string',
      description:
        describeField(schema, 'spec', 'priorityLevelConfiguration', 'name') ||
        'The priority level requests matching the schema are assigned to.',
      jsonPath: '.spec.priorityLevelConfiguration.name',
      zero: '',
    },
    {
      name: 'MatchingPrecedence',
      type: 'string',
      description:
        describeField(schema, 'spec', 'matchingPrecedence') ||
        'The order in which flow schemas are matched (lower first).',
      jsonPath: '.spec.matchingPrecedence',
      readAs: 'integer',
      zero: 0,
    },
    {
      name: 'DistinguisherMethod',
      type: 'string',
      description: describeField(schema, 'spec', 'distinguisherMethod') || 'How requests are divided into flows.',
      cell: (obj) => stringAt(obj, 'spec', 'distinguisherMethod', 'type') || '<none>',
    },
    AGE_SPEC,
    {
      name: 'MissingPL',
      type: 'string',
      description: 'Whether the named priority level is missing or broken.',
      cell: (obj) => {
        const conditions = valueAt(obj, 'status', 'conditions');
        const dangling = Array.isArray(conditions)
          ? conditions.find((c) => stringAt(c, 'type') === 'Dangling')
          : undefined;
        return dangling ? stringAt(dangling, 'status') : '?';
      },
    },
  ]);
}

/**
 * kube's PriorityLevelConfiguration printer: `Name`, `Type`, `NominalConcurrencyShares`,
 * `Queues`, `HandSize`, `QueueLengthLimit` (`<none>` where the level is not limited or does not
 * queue), `Age`. `schema` is the PriorityLevelConfiguration schema (descriptions).
 */
export function priorityLevelTableColumns(schema: Schema): TableColumns {
  const limited = (...path: string[]) => describeField(schema, 'spec', 'limited', ...path);
  const queuing = (field: string) => limited('limitResponse', 'queuing', field);
  const limitedAt = (obj: ApiObject) => valueAt(obj, 'spec', 'limited');
  const queuingAt = (obj: ApiObject) => valueAt(limitedAt(obj), 'limitResponse', 'queuing');
  const present = (v: unknown) => v !== undefined && v !== null;
  const queueColumn = (name: string, field: string, fallback: string) => ({
    name,
    type: 'string',
    description: queuing(field) || fallback,
    cell: (obj: ApiObject) => {
      const q = queuingAt(obj);
      return present(q) ? numberAt(q, field) : '<none>';
    },
  });
  return declarativeTableColumns([
    {
      name: 'Type',
      type: 'string',
      description: describeField(schema, 'spec', 'type') || 'Whether requests of the level are Exempt or Limited.',
      jsonPath: '.spec.type',
      zero: '',
    },
    {
      name: 'NominalConcurrencyShares',
      type: 'string',
      description: limited('nominalConcurrencyShares') || 'The share of the server concurrency limit of the level.',
      cell: (obj) => {
        const lim = limitedAt(obj);
        return present(lim) ? numberAt(lim, 'nominalConcurrencyShares') : '<none>';
      },
    },
    queueColumn('Queues', 'queues', 'The number of queues of the level.'),
    queueColumn('HandSize', 'handSize', 'The number of queues a flow is shuffle-sharded to.'),
    queueColumn('QueueLengthLimit', 'queueLengthLimit', 'The number of requests a queue may hold.'),
    AGE_SPEC,
  ]);
}
