import { Optional } from '@marcbachmann/cel-js';
import {
  isQualifiedName,
  isValidLabelValue,
  maxLenError,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  regexError,
} from '../../apis/meta/name-validation.js';
import type { CelLibrary } from '../cel-library.js';
import { NAMESPACE_TYPES } from '../function-namespaces.js';
import { type CelObject, registerFunctions, registerObjectType } from './cel-values.js';
import { GoUrlError, parseRequestURI } from './go-url.js';

const NAMED_FORMAT = 'kubernetes.NamedFormat';
/** The type of the `format` identifier that carries `format.named(…)` and `format.<name>()`. */
const FORMAT_FUNCTIONS = NAMESPACE_TYPES.format;

/** A CEL `kubernetes.NamedFormat`: a name and the check that returns its problems. */
class NamedFormat implements CelObject {
  readonly celType = NAMED_FORMAT;
  constructor(
    readonly name: string,
    readonly validate: (s: string) => readonly string[],
  ) {}

  equals(other: CelObject): boolean {
    return other instanceof NamedFormat && this.name === other.name;
  }
}

class FormatFunctions {}

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_ERR =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const dns1035LabelRe = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** apimachinery's NameIsDNS1035Label (a generateName prefix gets its trailing '-' masked). */
function nameIsDNS1035Label(name: string, prefix: boolean): string[] {
  const value = prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
  const errs: string[] = [];
  if (Buffer.byteLength(value, 'utf8') > 63) errs.push(maxLenError(63));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

// kube-openapi's strfmt checks (what CRD `format`s use): fixed, linear patterns.
const uuidRe = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const base64Re = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
/** strfmt's DateTimePattern; Go's `.` is any character but a newline. */
const dateTimeRe = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u;

/** Go's `time.Parse("2006-01-02", s)` succeeds: four-digit year, a real month and day. */
function isDate(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(s);
  if (m === null) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}

/** strfmt's IsDateTime: a date, a 't', and a time matched by its pattern (case-insensitive). */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = dateTimeRe.exec(parts[1]);
  return m !== null && m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

const check =
  (ok: (s: string) => boolean, message: string) =>
  (s: string): readonly string[] =>
    ok(s) ? [] : [message];

/** kube's ConstantFormats, by the name `format.named` takes. */
const FORMATS: Readonly<Record<string, NamedFormat>> = {
  dns1123Label: new NamedFormat('DNS1123Label', (s) => nameIsDNSLabel(s, false)),
  dns1123Subdomain: new NamedFormat('DNS1123Subdomain', (s) => nameIsDNSSubdomain(s, false)),
  dns1035Label: new NamedFormat('DNS1035Label', (s) => nameIsDNS1035Label(s, false)),
  qualifiedName: new NamedFormat('QualifiedName', isQualifiedName),
  dns1123LabelPrefix: new NamedFormat('DNS1123LabelPrefix', (s) => nameIsDNSLabel(s, true)),
  dns1123SubdomainPrefix: new NamedFormat('DNS1123SubdomainPrefix', (s) => nameIsDNSSubdomain(s, true)),
  dns1035LabelPrefix: new NamedFormat('DNS1035LabelPrefix', (s) => nameIsDNS1035Label(s, true)),
  labelValue: new NamedFormat('LabelValue', isValidLabelValue),
  uri: new NamedFormat('URI', (s) => {
    try {
      parseRequestURI(s);
      return [];
    } catch (err) {
      if (err instanceof GoUrlError) return [err.message];
      throw err;
    }
  }),
  uuid: new NamedFormat(
    'uuid',
    check((s) => uuidRe.test(s), 'does not match the UUID format'),
  ),
  byte: new NamedFormat(
    'byte',
    check((s) => base64Re.test(s), 'invalid base64'),
  ),
  date: new NamedFormat('date', check(isDate, 'invalid date')),
  datetime: new NamedFormat('datetime', check(isDateTime, 'invalid datetime')),
};

/**
 * kube's `kubernetes.format` library (format.go, v1.32): `format.named(<string>)` (an optional
 * format: `dns1123Label`, `dns1123Subdomain`, `dns1035Label`, `qualifiedName`,
 * `dns1123LabelPrefix`, `dns1123SubdomainPrefix`, `dns1035LabelPrefix`, `labelValue`, `uri`,
 * `uuid`, `byte`, `date`, `datetime`), `format.<name>()` for each, and
 * `<format>.validate(<string>)`: `optional.none()` when valid, else the list of kube's messages.
 */
export const formatLibrary: CelLibrary = {
  name: 'kubernetes.format',
  register(env) {
    registerObjectType(env, NAMED_FORMAT, NamedFormat);
    env.registerType(FORMAT_FUNCTIONS, { ctor: FormatFunctions, fields: {} });
    env.registerConstant('format', FORMAT_FUNCTIONS, new FormatFunctions());
    registerFunctions(env, [
      [
        `${FORMAT_FUNCTIONS}.named(string): optional<${NAMED_FORMAT}>`,
        (_: FormatFunctions, name: string) =>
          Object.hasOwn(FORMATS, name) ? Optional.of(FORMATS[name]) : Optional.none(),
      ],
      ...Object.entries(FORMATS).map(
        ([name, f]) => [`${FORMAT_FUNCTIONS}.${name}(): ${NAMED_FORMAT}`, () => f] as const,
      ),
      [
        `${NAMED_FORMAT}.validate(string): optional<list<string>>`,
        (f: NamedFormat, s: string) => {
          const errs = f.validate(s);
          return errs.length === 0 ? Optional.none() : Optional.of(errs);
        },
      ],
    ]);
  },
};
