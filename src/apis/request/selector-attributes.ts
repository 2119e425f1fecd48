import { SelectorParseError } from '../selectors/errors.js';
import { type FieldRequirement, parseFieldSelector } from '../selectors/field-selector.js';
import type { LabelRequirement } from '../selectors/label-requirement.js';
import { parseLabelSelector } from '../selectors/label-selector.js';
import { NO_SELECTORS, type SelectorAttributes } from './authorization-attributes.js';

/** Requirements read from a selector, or why it could not be read. */
export interface ParsedSelector<R> {
  readonly requirements: readonly R[] | undefined;
  readonly error: string | undefined;
}

const NOTHING: ParsedSelector<never> = Object.freeze({ requirements: undefined, error: undefined });

function parsed<R>(text: string, parse: (text: string) => { readonly requirements: readonly R[] }): ParsedSelector<R> {
  if (text === '') return NOTHING;
  try {
    const { requirements } = parse(text);
    return requirements.length > 0 ? { requirements, error: undefined } : NOTHING;
  } catch (e) {
    if (e instanceof SelectorParseError) return { requirements: undefined, error: e.message };
    throw e;
  }
}

/** A raw `fieldSelector` as kube's `fields.ParseSelector` reads it (empty: no requirements). */
export function parseFieldSelectorRequirements(text: string): ParsedSelector<FieldRequirement> {
  return parsed(text, parseFieldSelector);
}

/** A raw `labelSelector` as kube's `labels.Parse` reads it (empty: no requirements). */
export function parseLabelSelectorRequirements(text: string): ParsedSelector<LabelRequirement> {
  return parsed(text, parseLabelSelector);
}

/** The attributes of two parsed selectors and their raw forms. */
export function selectorAttributesOf(
  raw: { readonly fieldSelector: string; readonly labelSelector: string },
  field: ParsedSelector<FieldRequirement>,
  label: ParsedSelector<LabelRequirement>,
): SelectorAttributes {
  return {
    fieldSelector: raw.fieldSelector,
    labelSelector: raw.labelSelector,
    fieldSelectorRequirements: field.requirements,
    fieldSelectorParsingError: field.error,
    labelSelectorRequirements: label.requirements,
    labelSelectorParsingError: label.error,
  };
}

/**
 * The selector attributes of a request's raw `fieldSelector` and `labelSelector` (kube's
 * `GetAuthorizerAttributes` with `AuthorizeWithSelectors`): each parsed; one that does not parse
 * carries its error and no requirements. Both empty: {@link NO_SELECTORS}, nothing parsed or built.
 */
export function requestSelectorAttributes(fieldSelector: string, labelSelector: string): SelectorAttributes {
  if (fieldSelector === '' && labelSelector === '') return NO_SELECTORS;
  return selectorAttributesOf(
    { fieldSelector, labelSelector },
    parseFieldSelectorRequirements(fieldSelector),
    parseLabelSelectorRequirements(labelSelector),
  );
}
