export * from './build-table.js';
export * from './builtin-columns.js';
export { describeField } from './column-helpers.js';
export * from './default-columns.js';
export * from './human-duration.js';
export * from './table-types.js';
