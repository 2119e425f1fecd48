export * from './builtin-field-labels.js';
export * from './errors.js';
export * from './field-labels.js';
export * from './field-selector.js';
export {
  BINARY_LABEL_OPERATORS,
  type LabelOperator,
  type LabelRequirement,
  newLabelRequirement,
  requirementMatches,
  requirementString,
} from './label-requirement.js';
export * from './label-selector.js';
export * from './label-selector-object.js';
