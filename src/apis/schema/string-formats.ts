/**
 * The string formats kube-apiserver checks in custom resources (kube-openapi's `strfmt` registry,
 * the set apiextensions keeps): each is a predicate over the string. Formats outside this set are
 * not checked (apiextensions strips them from the schema it validates with).
 */

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const BYTE_255 = '(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])';
const RGB_COLOR = new RegExp(`^rgb\\(\\s*${BYTE_255}\\s*,\\s*${BYTE_255}\\s*,\\s*${BYTE_255}\\s*\\)$`);
const CREDIT_CARD =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(:(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/i;
const DURATION_UNIT = '(ns|us|µs|μs|ms|s|m|h|d|w)';
const GO_DURATION = new RegExp(`^[-+]?((\\d+(\\.\\d*)?|\\.\\d+)${DURATION_UNIT})+$`);
const SCALA_DURATION =
  /^(\d+)\s*(ns|nanos?|nanoseconds?|us|micros?|microseconds?|ms|millis?|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hours?|d|days?|w|wk|weeks?)$/;
const MAC_COLON =
  /^([0-9a-fA-F]{2})([:-][0-9a-fA-F]{2}){5}$|^([0-9a-fA-F]{2})([:-][0-9a-fA-F]{2}){7}$|^([0-9a-fA-F]{2})([:-][0-9a-fA-F]{2}){19}$/;
const MAC_DOT =
  /^([0-9a-fA-F]{4})(\.[0-9a-fA-F]{4}){2}$|^([0-9a-fA-F]{4})(\.[0-9a-fA-F]{4}){3}$|^([0-9a-fA-F]{4})(\.[0-9a-fA-F]{4}){9}$/;

/** A dotted-quad IPv4 address as Go's `net.ParseIP` reads it (no leading zeros). */
export function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

/** An IPv6 address (optionally ending in an IPv4 address) as Go's `net.ParseIP` reads it. */
export function isIPv6(s: string): boolean {
  if (!s.includes(':')) return false;
  let rest = s;
  let groupsWanted = 8;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    if (!isIPv4(s.slice(lastColon + 1))) return false;
    rest = `${s.slice(0, lastColon + 1)}0`;
    groupsWanted = 7;
  }
  const halves = rest.split('::');
  if (halves.length > 2) return false;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const all = halves.flatMap(groups);
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? all.length < groupsWanted : all.length === groupsWanted;
}

function isCidr(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^(0|[1-9]\d*)$/.test(bits)) return false;
  if (isIPv4(ip)) return Number(bits) <= 32;
  return isIPv6(ip) && Number(bits) <= 128;
}

function isUri(s: string): boolean {
  // Go's url.ParseRequestURI: an absolute URI or an absolute path, without spaces or fragments.
  if (s.length === 0 || /\s/.test(s) || [...s].some((c) => c.charCodeAt(0) < 0x20)) return false;
  return s.startsWith('/') || /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s);
}

function isEmail(s: string): boolean {
  const angle = /<([^<>]+)>\s*$/.exec(s);
  const addr = angle ? angle[1] : s.trim();
  return /^[^\s@<>()[\]\\,;:"]+(\.[^\s@<>()[\]\\,;:"]+)*@[^\s@<>()[\]\\,;:"]+$/.test(addr);
}

function isbn10(s: string): boolean {
  const d = s.replace(/[\s-]/g, '');
  if (!/^\d{9}[\dX]$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (d[i] === 'X' ? 10 : Number(d[i])) * (10 - i);
  return sum % 11 === 0;
}

function isbn13(s: string): boolean {
  const d = s.replace(/[\s-]/g, '');
  if (!/^\d{13}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(d[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(d[12]);
}

function isCreditCard(s: string): boolean {
  const digits = s.replace(/\D/g, '');
  if (!CREDIT_CARD.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let n = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

function validDate(y: string, m: string, d: string): boolean {
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(Number(y), month, 0)).getUTCDate();
  return day <= days;
}

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  return m !== null && validDate(m[1], m[2], m[3]);
}

function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m || !validDate(m[1], m[2], m[3])) return false;
  return Number(m[4]) < 24 && Number(m[5]) < 60 && (m[7] === undefined || Number(m[7]) < 60);
}

const CHECKS: Readonly<Record<string, (s: string) => boolean>> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isUri,
  email: isEmail,
  hostname: (s) => s.length <= 255 && HOSTNAME.test(s),
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr: isCidr,
  mac: (s) => MAC_COLON.test(s) || MAC_DOT.test(s),
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID3.test(s),
  uuid4: (s) => UUID4.test(s),
  uuid5: (s) => UUID5.test(s),
  isbn: (s) => isbn10(s) || isbn13(s),
  isbn10,
  isbn13,
  creditcard: isCreditCard,
  ssn: (s) => SSN.test(s),
  hexcolor: (s) => HEX_COLOR.test(s),
  rgbcolor: (s) => RGB_COLOR.test(s),
  password: () => true,
  date: isDate,
  duration: (s) => GO_DURATION.test(s) || SCALA_DURATION.test(s),
  datetime: isDateTime,
};

/** The name kube-openapi looks a format up by: without dashes (`date-time` → `datetime`). */
export function normalizedFormat(format: string): string {
  return format.replaceAll('-', '');
}

/** Whether kube checks custom resources against `format` (`byte` and `date-time` included). */
export function isCustomResourceFormat(format: string): boolean {
  const n = normalizedFormat(format);
  return n === 'byte' || Object.hasOwn(CHECKS, n);
}

/** The check of one of the custom-resource formats, or undefined for any other format. */
export function customResourceFormatCheck(format: string): ((s: string) => boolean) | undefined {
  return CHECKS[normalizedFormat(format)];
}
