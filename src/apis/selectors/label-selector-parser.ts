import { compareGoStrings } from '../../util/go-strings.js';
import { SelectorParseError } from './errors.js';
import { type LabelToken, type ScannedItem, scanLabelSelector } from './label-lexer.js';
import {
  BINARY_LABEL_OPERATORS,
  type LabelOperator,
  type LabelRequirement,
  labelKeyError,
  newLabelRequirement,
} from './label-requirement.js';

/**
 * Where the parser stands: `in`/`notin` are operators after a key but plain identifiers where
 * a key or value is expected (`in in (in)` is a valid selector).
 */
type Context = 'keyAndOperator' | 'values';

class ParseFailure extends Error {}

function fail(message: string): never {
  throw new ParseFailure(message);
}

/** kube's recursive-descent label selector parser, message for message. */
class Parser {
  private position = 0;
  constructor(private readonly items: readonly ScannedItem[]) {}

  private adjust(item: ScannedItem, context: Context): ScannedItem {
    if (context === 'values' && (item.token === 'in' || item.token === 'notin')) {
      return { token: 'identifier', literal: item.literal };
    }
    return item;
  }

  private lookahead(context: Context): ScannedItem {
    return this.adjust(this.items[this.position], context);
  }

  private consume(context: Context): ScannedItem {
    return this.adjust(this.items[this.position++], context);
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { token, literal } = this.lookahead('values');
      if (token === 'end') return requirements;
      if (token !== 'identifier' && token !== '!') {
        throw new SelectorParseError('label', `found '${literal}', expected: !, identifier, or 'end of string'`);
      }
      try {
        requirements.push(this.parseRequirement());
      } catch (err) {
        if (err instanceof ParseFailure || err instanceof SelectorParseError) {
          throw new SelectorParseError('label', `unable to parse requirement: ${err.message}`);
        }
        throw err;
      }
      const next = this.consume('values');
      if (next.token === 'end') return requirements;
      if (next.token !== ',') {
        throw new SelectorParseError('label', `found '${next.literal}', expected: ',' or 'end of string'`);
      }
      const after = this.lookahead('values');
      if (after.token !== 'identifier' && after.token !== '!') {
        throw new SelectorParseError('label', `found '${after.literal}', expected: identifier after ','`);
      }
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return newLabelRequirement(key, operator, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    // kube collects values in a set: sorted, without duplicates.
    return newLabelRequirement(key, op, [...values].sort(compareGoStrings));
  }

  /** A key, preceded by `!` for does-not-exist; a key followed by `,` or the end means exists. */
  private parseKeyAndInferOperator(): { key: string; operator?: LabelOperator } {
    let operator: LabelOperator | undefined;
    let item = this.consume('values');
    if (item.token === '!') {
      operator = '!';
      item = this.consume('values');
    }
    if (item.token !== 'identifier') fail(`found '${item.literal}', expected: identifier`);
    // kube validates the key with a nil field path, which prints as `<nil>`.
    const keyErr = labelKeyError(item.literal, '<nil>');
    if (keyErr) fail(keyErr);
    const next = this.lookahead('values').token;
    if ((next === 'end' || next === ',') && operator !== '!') operator = 'exists';
    return { key: item.literal, operator };
  }

  private parseOperator(): LabelOperator {
    const { token, literal } = this.consume('keyAndOperator');
    const operators: Partial<Record<LabelToken, LabelOperator>> = {
      in: 'in',
      '=': '=',
      '==': '==',
      '>': 'gt',
      '<': 'lt',
      notin: 'notin',
      '!=': '!=',
    };
    const op = operators[token];
    if (!op) fail(`found '${literal}', expected: ${BINARY_LABEL_OPERATORS.join(', ')}`);
    return op;
  }

  /** `(a,b,...)`; `()` is the set holding the empty string. */
  private parseValues(): Set<string> {
    const open = this.consume('values');
    if (open.token !== '(') fail(`found '${open.literal}' expected: '('`);
    const { token, literal } = this.lookahead('values');
    if (token === 'identifier' || token === ',') {
      const values = this.parseIdentifiersList();
      // parseIdentifiersList returns only when a ')' is next.
      if (this.consume('values').token !== ')') fail(`found '${literal}', expected: ')'`);
      return values;
    }
    if (token === ')') {
      this.consume('values');
      return new Set(['']);
    }
    fail(`found '${literal}', expected: ',', ')' or identifier`);
  }

  /** Comma-separated identifiers, where an empty slot (`(,a)`, `(a,,b)`, `(a,)`) is the empty string. */
  private parseIdentifiersList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const { token, literal } = this.consume('values');
      if (token === 'identifier') {
        values.add(literal);
        const next = this.lookahead('values');
        if (next.token === ',') continue;
        if (next.token === ')') return values;
        fail(`found '${next.literal}', expected: ',' or ')'`);
      } else if (token === ',') {
        if (values.size === 0) values.add('');
        const next = this.lookahead('values').token;
        if (next === ')') {
          values.add('');
          return values;
        }
        if (next === ',') {
          this.consume('values');
          values.add('');
        }
      } else {
        fail(`found '${literal}', expected: ',', or identifier`);
      }
    }
  }

  /** The value after `=`, `==`, `!=`, `>` or `<`; nothing (end or `,`) is the empty string. */
  private parseExactValue(): Set<string> {
    const next = this.lookahead('values').token;
    if (next === 'end' || next === ',') return new Set(['']);
    const { token, literal } = this.consume('values');
    if (token === 'identifier') return new Set([literal]);
    fail(`found '${literal}', expected: identifier`);
  }
}

/**
 * Parses label selector text into requirements in source order (unsorted).
 *
 * @throws SelectorParseError with kube's message.
 */
export function parseLabelRequirements(text: string): LabelRequirement[] {
  return new Parser(scanLabelSelector(text)).parse();
}
