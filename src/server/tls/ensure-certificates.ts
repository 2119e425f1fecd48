import type { X509Certificate } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type Clock, systemClock } from '../../util/clock.js';
import { caProblem, leafProblem, type ParsedPair, parseBundle, parsePair } from './certificate-checks.js';
import {
  type CertificateKeyPair,
  createCertificateAuthority,
  issueClientCertificate,
  issueServingCertificate,
} from './certificate-factory.js';
import { TlsConfigError } from './errors.js';
import {
  PRIVATE_FILE_MODE,
  PUBLIC_FILE_MODE,
  readOptionalFile,
  readRequiredFile,
  restrictMode,
  writeFileAtomic,
} from './pem-files.js';

/** User name of the generated admin client certificate. */
export const ADMIN_USER = 'orch-admin';
/** Group of the generated admin client certificate: unrestricted access. */
export const ADMIN_GROUP = 'system:masters';

const DEFAULT_RENEW_BEFORE_MS = 7 * 24 * 3_600_000;

export interface EnsureCertificatesOptions {
  /** Directory holding generated material; created (0700) when something must be generated. */
  readonly certDir: string;
  /** Extra serving-certificate SANs (IP or DNS) on top of 127.0.0.1, ::1, localhost and os.hostname(). */
  readonly hostNames?: readonly string[];
  /** `--tls-cert-file`: serving certificate (chain) PEM; requires `tlsKeyFile`. */
  readonly tlsCertFile?: string;
  /** `--tls-private-key-file`: private key of `tlsCertFile`. */
  readonly tlsKeyFile?: string;
  /** `--client-ca-file`: bundle of CAs trusted to sign client certificates; disables the generated admin cert. */
  readonly clientCaFile?: string;
  /**
   * `--requestheader-client-ca-file`: bundle of CAs that sign authenticating proxies' client
   * certificates; the TLS layer accepts them too (see `ServingCertificates.trustedClientCas`).
   */
  readonly requestHeaderClientCaFile?: string;
  /** Generated certificates expiring within this window are regenerated; default 7 days. */
  readonly renewBeforeMs?: number;
  /** Time source for validity checks and new certificates; default the system clock. */
  readonly clock?: Clock;
  readonly signal?: AbortSignal;
}

/** Paths in use; generated files live under `certDir`. */
export interface CertificateFiles {
  readonly servingCert: string;
  readonly servingKey: string;
  /** The client CA bundle: `clientCaFile`, or the generated `ca.crt`. */
  readonly clientCa: string;
  /** Generated CA, when one is in use. */
  readonly ca?: string;
  readonly caKey?: string;
  readonly adminCert?: string;
  readonly adminKey?: string;
}

/** Which generated files were (re)written by this call, with the reason ("missing", "expired at …", …). */
export interface RegeneratedCertificates {
  readonly ca?: string;
  readonly serving?: string;
  readonly admin?: string;
}

export interface ServingCertificates {
  /** Serving certificate (chain) PEM for the TLS server. */
  readonly cert: string;
  /** Serving private key PEM. */
  readonly key: string;
  /** PEM bundle of the client CAs: certificates they sign are users. */
  readonly clientCa: string;
  /** PEM bundle of `requestHeaderClientCaFile`, when given. */
  readonly requestHeaderClientCa: string | undefined;
  /**
   * Every CA whose client certificates the TLS layer accepts (TLS `ca` option): the client CAs and
   * the request-header CAs. Each authenticator verifies a chain against its own bundle.
   */
  readonly trustedClientCas: string;
  /**
   * CA that signed the generated serving certificate, for clients (kubeconfig
   * `certificate-authority-data`); undefined when the serving certificate is user-supplied.
   */
  readonly servingCa: string | undefined;
  /** Admin client certificate (CN orch-admin, O system:masters); undefined with a user-supplied client CA. */
  readonly admin: CertificateKeyPair | undefined;
  readonly files: CertificateFiles;
  readonly regenerated: RegeneratedCertificates;
}

/** Default serving SANs: loopback addresses, `localhost` and this host's name. */
export function defaultHostNames(): string[] {
  return ['127.0.0.1', '::1', 'localhost', hostname().toLowerCase()];
}

function requiredHostNames(extra: readonly string[] | undefined): string[] {
  const names = new Set<string>();
  for (const n of [...defaultHostNames(), ...(extra ?? [])]) {
    const trimmed = n.trim();
    if (trimmed) names.add(isIP(trimmed) ? trimmed : trimmed.toLowerCase());
  }
  return [...names];
}

interface Slot {
  readonly certPath: string;
  readonly keyPath: string;
}

async function readPair(slot: Slot): Promise<{ pem: CertificateKeyPair; parsed: ParsedPair } | string> {
  const [cert, key] = await Promise.all([readOptionalFile(slot.certPath), readOptionalFile(slot.keyPath)]);
  if (cert === undefined || key === undefined) return 'missing';
  const pem = { cert, key };
  const parsed = parsePair(pem);
  return typeof parsed === 'string' ? parsed : { pem, parsed };
}

async function writePair(slot: Slot, pem: CertificateKeyPair): Promise<void> {
  // Key first: a crash in between leaves a certificate that no longer matches, which the next start regenerates.
  await writeFileAtomic(slot.keyPath, pem.key, PRIVATE_FILE_MODE);
  await writeFileAtomic(slot.certPath, pem.cert, PUBLIC_FILE_MODE);
}

/**
 * Reuses or (re)generates `slot`: `check` says why existing material is unusable, `issue` makes new material.
 * Reports the reason through `onRegenerate` when it writes.
 */
async function reuseOrIssue(
  slot: Slot,
  check: (pair: ParsedPair) => string | undefined,
  issue: () => Promise<CertificateKeyPair>,
  onRegenerate: (reason: string) => void,
): Promise<{ pem: CertificateKeyPair; parsed: ParsedPair }> {
  const existing = await readPair(slot);
  const problem = typeof existing === 'string' ? existing : check(existing.parsed);
  if (problem === undefined && typeof existing !== 'string') {
    await restrictMode(slot.keyPath);
    return existing;
  }
  const pem = await issue();
  await writePair(slot, pem);
  onRegenerate(problem ?? 'missing');
  const parsed = parsePair(pem);
  if (typeof parsed === 'string') throw new TlsConfigError(`generated ${slot.certPath} is unusable: ${parsed}`);
  return { pem, parsed };
}

async function loadUserServing(certFile: string, keyFile: string): Promise<CertificateKeyPair> {
  const pem = {
    cert: await readRequiredFile(certFile, '--tls-cert-file'),
    key: await readRequiredFile(keyFile, '--tls-private-key-file'),
  };
  const parsed = parsePair(pem);
  if (typeof parsed === 'string') throw new TlsConfigError(`--tls-cert-file ${certFile}: ${parsed}`);
  return pem;
}

async function loadUserClientCa(file: string, flag = '--client-ca-file'): Promise<string> {
  const pem = await readRequiredFile(file, flag);
  let certs: X509Certificate[];
  try {
    certs = parseBundle(pem);
  } catch (err) {
    throw new TlsConfigError(`${flag} ${file}: ${(err as Error).message}`, { cause: err });
  }
  if (certs.length === 0) throw new TlsConfigError(`${flag} ${file}: no PEM certificate found`);
  return pem;
}

/** Concatenated PEM bundles, each ending in a newline. */
function joinBundles(...pems: (string | undefined)[]): string {
  return pems
    .filter((p): p is string => p !== undefined)
    .map((p) => (p.endsWith('\n') ? p : `${p}\n`))
    .join('');
}

/**
 * Provides the certificates the secure server needs.
 *
 * Without user-supplied files, the first start generates under `certDir` a CA (`ca.crt`, `ca.key`), a serving
 * certificate (`apiserver.crt`, `apiserver.key`; SANs 127.0.0.1, ::1, localhost, os.hostname() and `hostNames`)
 * and an admin client certificate (`admin.crt`, `admin.key`; CN `orch-admin`, O `system:masters`), all EC
 * P-256. Later starts reuse each file pair unless it is missing, unparseable, mismatched with its key, not
 * signed by the current CA, expired or expiring within `renewBeforeMs`, or (serving) lacking a required SAN;
 * only those are regenerated, and a regenerated CA invalidates both leaves. Private keys are written 0600,
 * atomically.
 *
 * `tlsCertFile` + `tlsKeyFile` replace the generated serving certificate (checked for key match only);
 * `clientCaFile` replaces the generated CA as client CA, and then no admin certificate is produced.
 *
 * Not safe against two processes generating into the same `certDir` at the same moment.
 * @throws TlsConfigError on unreadable or inconsistent user-supplied files, or when writing fails.
 */
export async function ensureCertificates(options: EnsureCertificatesOptions): Promise<ServingCertificates> {
  const { certDir, signal } = options;
  if ((options.tlsCertFile === undefined) !== (options.tlsKeyFile === undefined)) {
    throw new TlsConfigError('--tls-cert-file and --tls-private-key-file must be given together');
  }
  signal?.throwIfAborted();
  const now = (options.clock ?? systemClock).now().getTime();
  const renewBeforeMs = options.renewBeforeMs ?? DEFAULT_RENEW_BEFORE_MS;
  const userServing =
    options.tlsCertFile !== undefined && options.tlsKeyFile !== undefined
      ? await loadUserServing(options.tlsCertFile, options.tlsKeyFile)
      : undefined;
  const userClientCa = options.clientCaFile !== undefined ? await loadUserClientCa(options.clientCaFile) : undefined;
  const requestHeaderClientCa =
    options.requestHeaderClientCaFile !== undefined
      ? await loadUserClientCa(options.requestHeaderClientCaFile, '--requestheader-client-ca-file')
      : undefined;

  if (userServing && userClientCa !== undefined) {
    return {
      cert: userServing.cert,
      key: userServing.key,
      clientCa: userClientCa,
      requestHeaderClientCa,
      trustedClientCas: joinBundles(userClientCa, requestHeaderClientCa),
      servingCa: undefined,
      admin: undefined,
      files: { servingCert: options.tlsCertFile!, servingKey: options.tlsKeyFile!, clientCa: options.clientCaFile! },
      regenerated: {},
    };
  }

  try {
    await mkdir(certDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new TlsConfigError(`cannot create --cert-dir ${certDir}: ${(err as Error).message}`, { cause: err });
  }
  const regenerated: { ca?: string; serving?: string; admin?: string } = {};
  const timing = { now: new Date(now) };
  const caSlot = { certPath: join(certDir, 'ca.crt'), keyPath: join(certDir, 'ca.key') };
  signal?.throwIfAborted();
  const ca = await reuseOrIssue(
    caSlot,
    (p) => caProblem(p, now, renewBeforeMs),
    () => createCertificateAuthority(timing),
    (reason) => {
      regenerated.ca = reason;
    },
  );

  // The serving and admin certificates depend only on the CA: they are checked or issued together.
  let servingSlot: Slot = { certPath: options.tlsCertFile ?? '', keyPath: options.tlsKeyFile ?? '' };
  let servingIssued: Promise<CertificateKeyPair> | undefined;
  if (!userServing) {
    signal?.throwIfAborted();
    servingSlot = { certPath: join(certDir, 'apiserver.crt'), keyPath: join(certDir, 'apiserver.key') };
    const hostNames = requiredHostNames(options.hostNames);
    servingIssued = reuseOrIssue(
      servingSlot,
      (p) => leafProblem(p, { ca: ca.parsed.cert, now, renewBeforeMs, usage: 'server', hostNames }),
      () => issueServingCertificate({ ca: ca.pem, hostNames, ...timing }),
      (reason) => {
        regenerated.serving = reason;
      },
    ).then((issued) => issued.pem);
  }

  let adminSlot: Slot | undefined;
  let adminIssued: Promise<CertificateKeyPair> | undefined;
  if (userClientCa === undefined) {
    signal?.throwIfAborted();
    adminSlot = { certPath: join(certDir, 'admin.crt'), keyPath: join(certDir, 'admin.key') };
    const subjectLines = [`CN=${ADMIN_USER}`, `O=${ADMIN_GROUP}`];
    adminIssued = reuseOrIssue(
      adminSlot,
      (p) => leafProblem(p, { ca: ca.parsed.cert, now, renewBeforeMs, usage: 'client', subjectLines }),
      () => issueClientCertificate({ ca: ca.pem, commonName: ADMIN_USER, organizations: [ADMIN_GROUP], ...timing }),
      (reason) => {
        regenerated.admin = reason;
      },
    ).then((issued) => issued.pem);
  }
  // Both settle before either failure is reported, so no write is left running.
  const [servingResult, adminResult] = await Promise.allSettled([servingIssued, adminIssued]);
  if (servingResult.status === 'rejected') throw servingResult.reason;
  if (adminResult.status === 'rejected') throw adminResult.reason;
  const serving = userServing ?? (servingResult.value as CertificateKeyPair);
  const admin = adminResult.value;

  return {
    cert: serving.cert,
    key: serving.key,
    clientCa: userClientCa ?? ca.pem.cert,
    requestHeaderClientCa,
    trustedClientCas: joinBundles(userClientCa ?? ca.pem.cert, requestHeaderClientCa),
    servingCa: userServing ? undefined : ca.pem.cert,
    admin,
    files: {
      servingCert: servingSlot.certPath,
      servingKey: servingSlot.keyPath,
      clientCa: options.clientCaFile ?? caSlot.certPath,
      ca: caSlot.certPath,
      caKey: caSlot.keyPath,
      adminCert: adminSlot?.certPath,
      adminKey: adminSlot?.keyPath,
    },
    regenerated,
  };
}
