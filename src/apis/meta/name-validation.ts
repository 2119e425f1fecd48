/**
 * Format checks for names, label keys and values, and data keys, with kube-apiserver's exact
 * messages. Each `is…` function returns the list of problems (empty when valid); callers wrap
 * each message into a `FieldValueInvalid` error. Lengths are counted in bytes, as Go does.
 */

const QNAME_CHAR = '[A-Za-z0-9]';
const QNAME_EXT_CHAR = '[-A-Za-z0-9_.]';
const QUALIFIED_NAME_FMT = `(${QNAME_CHAR}${QNAME_EXT_CHAR}*)?${QNAME_CHAR}`;
const QUALIFIED_NAME_ERR =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX = 63;

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
/** Longest label value, in bytes. */
export const LABEL_VALUE_MAX_LENGTH = 63;

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
/** Longest DNS-1123 label, in bytes. */
export const DNS1123_LABEL_MAX_LENGTH = 63;

const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
/** Longest DNS-1123 subdomain, in bytes. */
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_MAP_KEY_ERR = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

function anchored(fmt: string): RegExp {
  return new RegExp(`^(?:${fmt})$`);
}

const qualifiedNameRe = anchored(QUALIFIED_NAME_FMT);
const labelValueRe = anchored(LABEL_VALUE_FMT);
const dns1123LabelRe = anchored(DNS1123_LABEL_FMT);
const dns1123SubdomainRe = anchored(DNS1123_SUBDOMAIN_FMT);
const configMapKeyRe = anchored(CONFIG_MAP_KEY_FMT);

function byteLength(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/**
 * Whether `value` is longer than `max` bytes in UTF-8. A UTF-16 unit takes one to three bytes, so
 * the string's length settles most cases without encoding it.
 */
function exceedsBytes(value: string, max: number): boolean {
  return value.length > max || (value.length * 3 > max && byteLength(value) > max);
}

/** `must be no more than N characters`. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/**
 * `<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')` — with kube's double space
 * before each `or`.
 */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  const eg = examples.map((e) => `'${e}', `).join(' or ');
  return `${msg} (e.g. ${eg}regex used for validation is '${fmt}')`;
}

/**
 * What the `is…` checks below return for a valid value: one shared, frozen empty list, so that
 * checking a valid value allocates nothing.
 */
export const NO_PROBLEMS: readonly string[] = Object.freeze([]);

/** `must be non-empty`. */
export function emptyError(): string {
  return 'must be non-empty';
}

/** A qualified name: `[prefix/]name`, prefix a DNS subdomain, name at most 63 characters. */
export function isQualifiedName(value: string): readonly string[] {
  // Looked for rather than split: most names have no prefix, and a valid one costs no allocation.
  const slash = value.indexOf('/');
  if (slash === -1) {
    if (value.length > 0 && value.length <= QUALIFIED_NAME_MAX && qualifiedNameRe.test(value)) return NO_PROBLEMS;
    return qualifiedNamePartErrors(value, []);
  }
  if (value.indexOf('/', slash + 1) !== -1) {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  const prefix = value.slice(0, slash);
  const errs: string[] = [];
  if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
  else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  return qualifiedNamePartErrors(value.slice(slash + 1), errs);
}

/** The name part's problems, added to `errs`. */
function qualifiedNamePartErrors(name: string, errs: string[]): string[] {
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (exceedsBytes(name, QUALIFIED_NAME_MAX)) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX)}`);
  if (!qualifiedNameRe.test(name)) {
    errs.push(`name part ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

/** A label value: empty, or at most 63 characters of the qualified-name alphabet. */
export function isValidLabelValue(value: string): readonly string[] {
  if (value.length <= LABEL_VALUE_MAX_LENGTH && labelValueRe.test(value)) return NO_PROBLEMS;
  const errs: string[] = [];
  if (exceedsBytes(value, LABEL_VALUE_MAX_LENGTH)) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!labelValueRe.test(value))
    errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** A DNS-1123 label (RFC 1123): lowercase alphanumerics and '-', at most 63 characters. */
export function isDNS1123Label(value: string): readonly string[] {
  if (value.length <= DNS1123_LABEL_MAX_LENGTH && dns1123LabelRe.test(value)) return NO_PROBLEMS;
  const errs: string[] = [];
  if (exceedsBytes(value, DNS1123_LABEL_MAX_LENGTH)) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!dns1123LabelRe.test(value)) {
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errs;
}

/** A DNS-1123 subdomain: dot-separated labels, at most 253 characters. */
export function isDNS1123Subdomain(value: string): readonly string[] {
  if (value.length <= DNS1123_SUBDOMAIN_MAX_LENGTH && dns1123SubdomainRe.test(value)) return NO_PROBLEMS;
  const errs: string[] = [];
  if (exceedsBytes(value, DNS1123_SUBDOMAIN_MAX_LENGTH)) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!dns1123SubdomainRe.test(value)) {
    errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  }
  return errs;
}

/** A ConfigMap or Secret data key: `[-._a-zA-Z0-9]+`, at most 253 characters, not `.`/`..`/`..x`. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (exceedsBytes(value, DNS1123_SUBDOMAIN_MAX_LENGTH)) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!configMapKeyRe.test(value)) {
    errs.push(regexError(CONFIG_MAP_KEY_ERR, CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  }
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** A name that can be one segment of a URL path or storage key: not `.`/`..`, no `/` or `%`. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return isValidPathSegmentPrefix(name);
}

/** A prefix of such a name (a generateName): no `/` or `%`. */
export function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  for (const illegal of ['/', '%']) {
    if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  }
  return errs;
}

/**
 * Checks a name (or, with `prefix`, a generateName) for one kind. Returns the problems found.
 */
export type NameValidator = (name: string, prefix: boolean) => readonly string[];

/**
 * Kube masks a trailing '-' of a generateName before checking it, since a random suffix will
 * follow. It drops the last two characters and appends 'a' (kube's exact behaviour).
 */
function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return `${name.slice(0, -2)}a`;
  return name;
}

/** Names that must be DNS-1123 subdomains (ConfigMap, Secret, ServiceAccount, Lease, …). */
export const nameIsDNSSubdomain: NameValidator = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** Names that must be DNS-1123 labels (Namespace). */
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** Names that only need to be safe as a path segment (the generic check every kind gets). */
export const nameIsPathSegment: NameValidator = (name, prefix) =>
  prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_ERR =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const dns1035LabelRe = anchored(DNS1035_LABEL_FMT);

/** A DNS-1035 label (RFC 1035): like a DNS-1123 label but starting with a letter. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (exceedsBytes(value, DNS1123_LABEL_MAX_LENGTH)) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

/** Names that must be DNS-1035 labels (Service). */
export const nameIsDNS1035Label: NameValidator = (name, prefix) =>
  isDNS1035Label(prefix ? maskTrailingDash(name) : name);
