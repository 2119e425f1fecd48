import { describe } from 'node:test';
import { Optional } from '@marcbachmann/cel-js';
import { formatLibrary } from './format.js';
import { type CelCase, runCelCases } from './testing/cel-cases.js';

const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_LABEL =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED_NAME =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const NAMES = [
  'dns1123Label',
  'dns1123Subdomain',
  'dns1035Label',
  'qualifiedName',
  'dns1123LabelPrefix',
  'dns1123SubdomainPrefix',
  'dns1035LabelPrefix',
  'labelValue',
  'uri',
  'uuid',
  'byte',
  'date',
  'datetime',
];

const valid = (format: string, value: string): CelCase => ({
  expr: `format.${format}().validate(${JSON.stringify(value)})`,
  want: Optional.none(),
});
const invalid = (format: string, value: string, ...errors: string[]): CelCase => ({
  expr: `format.${format}().validate(${JSON.stringify(value)})`,
  want: Optional.of(errors),
});

describe('kubernetes.format', () => {
  const cases: CelCase[] = [
    // kube's own table (format_test.go).
    valid('dns1123Label', 'my-label-name'),
    valid('dns1123Subdomain', 'apiextensions.k8s.io'),
    valid('qualifiedName', 'apiextensions.k8s.io/v1beta1'),
    valid('dns1123LabelPrefix', 'my-label-prefix-'),
    valid('dns1123SubdomainPrefix', 'mysubdomain.prefix.-'),
    valid('dns1035LabelPrefix', 'my-label-prefix-'),
    valid('uri', 'http://example.com'),
    valid('uuid', '123e4567-e89b-12d3-a456-426614174000'),
    valid('byte', 'aGVsbG8='),
    valid('date', '2021-01-01'),
    valid('datetime', '2021-01-01T00:00:00Z'),
    invalid('dns1123Label', 'contains a space', DNS1123_LABEL),
    invalid('dns1123Subdomain', 'contains a space', DNS1123_SUBDOMAIN),
    invalid('dns1035Label', 'contains a space', DNS1035_LABEL),
    invalid('qualifiedName', 'contains a space', QUALIFIED_NAME),
    invalid('dns1123LabelPrefix', 'contains a space-', DNS1123_LABEL),
    invalid('dns1123SubdomainPrefix', 'contains a space-', DNS1123_SUBDOMAIN),
    invalid('dns1035LabelPrefix', 'contains a space-', DNS1035_LABEL),
    valid('dns1035Label', 'my-label-name'),
    valid('qualifiedName', 'my.name'),
    invalid('byte', 'aGVsbG8', 'invalid base64'),
    valid('date', '2020-01-01'),
    invalid('date', '2020-01-32', 'invalid date'),
    valid('datetime', '2020-01-01T00:00:00Z'),
    invalid('datetime', '2020-01-01T00:00:00', 'invalid datetime'),
    { expr: 'format.named("unknown").hasValue()', want: false },
    valid('labelValue', 'my-cool-label-Value'),
    invalid('labelValue', 'my-cool-label-Value!!\n\n!!!', LABEL_VALUE),
    // Lookup by name and equality, for every format.
    ...NAMES.flatMap((name): CelCase[] => [
      { expr: `format.named("${name}").hasValue()`, want: true },
      { expr: `format.named("${name}").value() == format.${name}()`, want: true },
      { expr: `format.${name}() == format.${NAMES[(NAMES.indexOf(name) + 1) % NAMES.length]}()`, want: false },
    ]),
    // More of apimachinery's messages.
    invalid('dns1123Label', 'a'.repeat(64), 'must be no more than 63 characters'),
    invalid('dns1123Label', 'a.b', 'must not contain dots'),
    invalid('dns1035Label', '1abc', DNS1035_LABEL),
    invalid('dns1035Label', `a${'b'.repeat(63)}`, 'must be no more than 63 characters'),
    invalid('dns1123Subdomain', 'a'.repeat(254), 'must be no more than 253 characters'),
    invalid(
      'qualifiedName',
      'a/b/c',
      `a qualified name ${QUALIFIED_NAME.slice('name part '.length)} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ),
    invalid('qualifiedName', '/name', 'prefix part must be non-empty'),
    valid('labelValue', ''),
    invalid('uri', 'relative/path', 'parse "relative/path": invalid URI for request'),
    invalid('uri', 'https://a:b:c/', 'parse "https://a:b:c/": invalid port ":c" after host'),
    valid('uri', '/absolute'),
    // kube-openapi's strfmt: uuid with or without dashes, any case; base64; calendar dates.
    valid('uuid', '123E4567E89B12D3A456426614174000'),
    invalid('uuid', 'not-a-uuid', 'does not match the UUID format'),
    invalid('byte', '', 'invalid base64'),
    valid('byte', 'YQ=='),
    invalid('byte', 'YQ', 'invalid base64'),
    valid('date', '2020-02-29'),
    valid('date', '2000-02-29'),
    invalid('date', '2021-02-29', 'invalid date'),
    invalid('date', '1900-02-29', 'invalid date'),
    invalid('date', '2020-1-01', 'invalid date'),
    invalid('date', '2020-13-01', 'invalid date'),
    invalid('date', '2020-01-01x', 'invalid date'),
    valid('datetime', '2021-01-01T23:59:59.123+05:30'),
    valid('datetime', '2021-01-01t00:00:00z'),
    invalid('datetime', '2021-01-01T24:00:00Z', 'invalid datetime'),
    invalid('datetime', '2021-01-01 00:00:00Z', 'invalid datetime'),
    invalid('datetime', '2021-02-30T00:00:00Z', 'invalid datetime'),
    // strfmt only reads what lies between the first and the second 't'.
    valid('datetime', '2021-01-01T00:00:00ZTrailing'),
    { expr: 'format.named("byte").value().validate("!").value()', want: ['invalid base64'] },
    { expr: 'format.uuid().validate(1)', checkError: 'found no matching overload' },
  ];
  runCelCases([formatLibrary], cases);
});
