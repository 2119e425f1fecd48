import { closeSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

/** Where audit events go. */
export interface AuditBackend {
  /** Writes one event; never throws (a failed write is reported through `onError`). */
  write(event: object): void;
  close(): void;
}

export interface LogBackendOptions {
  /** `--audit-log-path`; `-` writes to standard output. */
  readonly path: string;
  /** `--audit-log-maxsize`: megabytes before the file is rotated (0: 100, as kube's writer). */
  readonly maxSizeMB?: number;
  /** `--audit-log-maxbackup`: rotated files kept (0: all). */
  readonly maxBackups?: number;
  /** `--audit-log-maxage`: days rotated files are kept (0: no limit). */
  readonly maxAgeDays?: number;
  readonly now?: () => Date;
  readonly onError?: (e: unknown) => void;
  /** Standard output for `-` (tests). */
  readonly stdout?: (line: string) => void;
}

const MB = 1024 * 1024;

/** kube's rotated-file timestamp (`2006-01-02T15-04-05.000`, UTC). */
function stamp(d: Date): string {
  return d.toISOString().replace(/:/g, '-').replace(/Z$/, '');
}

/**
 * The log backend of `--audit-log-path`: one JSON object per line, written synchronously (kube's
 * default `blocking` mode: an event is on disk before the request proceeds). The file is rotated
 * as kube's writer rotates it: when a write would pass `maxSizeMB`, it is renamed to
 * `<name>-<UTC time>.<ext>` and a new one started; rotated files beyond `maxBackups` or older than
 * `maxAgeDays` are removed.
 */
export class LogBackend implements AuditBackend {
  private fd: number | undefined;
  private size = 0;
  private readonly maxBytes: number;
  private readonly now: () => Date;

  constructor(private readonly o: LogBackendOptions) {
    this.maxBytes = (o.maxSizeMB && o.maxSizeMB > 0 ? o.maxSizeMB : 100) * MB;
    this.now = o.now ?? (() => new Date());
  }

  write(event: object): void {
    const line = `${JSON.stringify(event)}\n`;
    try {
      if (this.o.path === '-') {
        (this.o.stdout ?? ((l: string) => process.stdout.write(l)))(line);
        return;
      }
      const bytes = Buffer.byteLength(line);
      if (this.fd === undefined) this.open();
      if (this.size + bytes > this.maxBytes && this.size > 0) this.rotate();
      writeSync(this.fd as number, line);
      this.size += bytes;
    } catch (e) {
      this.o.onError?.(e);
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): void {
    this.fd = openSync(this.o.path, 'a', 0o600);
    try {
      this.size = statSync(this.o.path).size;
    } catch {
      this.size = 0;
    }
  }

  private rotate(): void {
    this.close();
    const ext = extname(this.o.path);
    const base = basename(this.o.path, ext);
    renameSync(this.o.path, join(dirname(this.o.path), `${base}-${stamp(this.now())}${ext}`));
    this.open();
    this.prune(base, ext);
  }

  private prune(base: string, ext: string): void {
    const dir = dirname(this.o.path);
    const pattern = new RegExp(
      `^${escapeRegExp(base)}-(\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d\\.\\d{3})${escapeRegExp(ext)}$`,
    );
    const backups = readdirSync(dir)
      .map((f) => ({ f, m: pattern.exec(f) }))
      .filter((x): x is { f: string; m: RegExpExecArray } => x.m !== null)
      .map(({ f, m }) => ({ f, t: Date.parse(`${m[1].replace(/T(\d\d)-(\d\d)-(\d\d)/, 'T$1:$2:$3')}Z`) }))
      .sort((a, b) => b.t - a.t);
    const cutoff = this.o.maxAgeDays ? this.now().getTime() - this.o.maxAgeDays * 86_400_000 : undefined;
    backups.forEach(({ f, t }, i) => {
      const tooMany = this.o.maxBackups !== undefined && this.o.maxBackups > 0 && i >= this.o.maxBackups;
      const tooOld = cutoff !== undefined && t < cutoff;
      if (tooMany || tooOld) unlinkSync(join(dir, f));
    });
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
