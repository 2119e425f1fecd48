/**
 * Format checks of core/v1 values with kube-apiserver's messages (k8s.io/apimachinery
 * `util/validation`): port numbers and names, environment variable names, IP addresses, user and
 * group ids, percentages, HTTP header names. Each returns the problems found (empty when valid).
 */
import { isIP } from 'node:net';
import { maxLenError, NO_PROBLEMS, regexError } from '../meta/name-validation.js';

/** kube's `InclusiveRangeError`. */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** A TCP/UDP/SCTP port number: 1..65535. */
export function isValidPortNum(port: number): readonly string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? NO_PROBLEMS : [inclusiveRangeError(1, 65535)];
}

const PORT_NAME_MAX = 15;
/** A valid IANA_SVC_NAME of at most 15 characters: letters, digits and single inner hyphens, a letter among them. */
const VALID_PORT_NAME = /^(?=[-a-z0-9]*[a-z])[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** An IANA_SVC_NAME: at most 15 of `[-a-z0-9]`, a letter, no `--`, no leading or trailing `-`. */
export function isValidPortName(port: string): readonly string[] {
  if (port.length <= PORT_NAME_MAX && VALID_PORT_NAME.test(port)) return NO_PROBLEMS;
  const errs: string[] = [];
  if (port.length > PORT_NAME_MAX) errs.push(maxLenError(PORT_NAME_MAX));
  if (!/^[-a-z0-9]+$/.test(port)) {
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  } else if (!/[a-z]/.test(port)) {
    errs.push('must contain at least one letter (a-z)');
  }
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) {
    errs.push('must not begin or end with a hyphen');
  }
  return errs;
}

const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_NAME_ERR =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const envVarNameRe = new RegExp(`^(?:${ENV_VAR_NAME_FMT})$`);

function chDirPrefixErrors(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

/** An environment variable name (kube v1.32's strict rule; relaxed names are an alpha feature). */
export function isEnvVarName(value: string): readonly string[] {
  // A name the pattern accepts that does not start with `.` has no `..` prefix either.
  if (value.charCodeAt(0) !== 0x2e && envVarNameRe.test(value)) return NO_PROBLEMS;
  const errs: string[] = [];
  if (!envVarNameRe.test(value)) {
    errs.push(regexError(ENV_VAR_NAME_ERR, ENV_VAR_NAME_FMT, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  }
  return [...errs, ...chDirPrefixErrors(value)];
}

/**
 * Go's `net.ParseIP` as kube's `ParseIPSloppy` uses it: IPv4 dotted quads (leading zeros allowed)
 * or IPv6 (an embedded IPv4 tail included).
 */
export function parseIPSloppy(value: string): 4 | 6 | undefined {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(value)) {
    return value.split('.').every((p) => Number(p) <= 255) ? 4 : undefined;
  }
  if (value.includes(':') && !value.includes('%') && isIP(value) === 6) return 6;
  return undefined;
}

/** `must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)` unless `value` parses. */
export function isValidIP(value: string): string[] {
  return parseIPSloppy(value) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

const MAX_ID = 2147483647;

/** A Linux user id: 0..2^31-1. */
export function isValidUserID(uid: number): readonly string[] {
  return uid >= 0 && uid <= MAX_ID ? NO_PROBLEMS : [inclusiveRangeError(0, MAX_ID)];
}

/** A Linux group id: 0..2^31-1. */
export const isValidGroupID = isValidUserID;

const PERCENT_FMT = '[0-9]+%';

/** `<digits>%`. */
export function isValidPercent(value: string): string[] {
  return /^[0-9]+%$/.test(value)
    ? []
    : [
        regexError(
          "a valid percent string must be a numeric string followed by an ending '%'",
          PERCENT_FMT,
          '1%',
          '93%',
        ),
      ];
}

const HTTP_HEADER_FMT = '[-A-Za-z0-9]+';

/** An HTTP header name: `[-A-Za-z0-9]+`. */
export function isHTTPHeaderName(value: string): string[] {
  return /^[-A-Za-z0-9]+$/.test(value)
    ? []
    : [
        regexError(
          "a valid HTTP header must consist of alphanumeric characters or '-'",
          HTTP_HEADER_FMT,
          'X-Header-Name',
        ),
      ];
}
