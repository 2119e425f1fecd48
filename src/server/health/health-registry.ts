import { StatusError } from '../../apis/meta/status.js';
import { type Clock, systemClock } from '../../util/clock.js';
import { expectListeners } from '../../util/listener-limit.js';
import { type Logger, silentLogger } from '../../util/logger.js';

/** The three health endpoints: `/healthz` (deprecated), `/livez`, `/readyz`. */
export type HealthGroup = 'healthz' | 'livez' | 'readyz';

export const HEALTH_GROUPS: readonly HealthGroup[] = ['healthz', 'livez', 'readyz'];

/** A check passes by resolving and fails by rejecting; the error message is shown only on the single-check path. */
export type HealthCheckFn = (signal: AbortSignal) => Promise<void>;

export interface RegisterCheckOptions {
  /** Endpoints that run the check; all three by default. */
  readonly groups?: readonly HealthGroup[];
  /**
   * Part of the start-up sequence (post-start hooks): on `/livez` the check reports ok without
   * running until `--livez-grace-period` has elapsed since registration. `/readyz` and `/healthz`
   * have no grace period, so readiness fails until start-up completes.
   */
  readonly bootSequence?: boolean;
}

export interface HealthResponse {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface HealthRegistryOptions {
  readonly clock?: Clock;
  /** `--livez-grace-period`, in milliseconds. */
  readonly livezGracePeriodMs?: number;
  /** Backs the `log` check (is logging unblocked?); passes by default. */
  readonly logCheck?: HealthCheckFn;
  /** Receives failure reasons, which responses withhold. */
  readonly logger?: Logger;
  /** Called once, the first time `/readyz` passes. */
  readonly onFirstReady?: () => void;
}

export class HealthRegistryError extends Error {
  constructor(
    readonly code: 'DuplicateCheck' | 'UnknownPostStartHook',
    message: string,
  ) {
    super(message);
    this.name = 'HealthRegistryError';
  }
}

interface Check {
  readonly name: string;
  readonly fn: HealthCheckFn;
  readonly groups: ReadonlySet<HealthGroup>;
  /** Epoch ms up to which a boot-sequence check passes on /livez unrun; 0 when there is no grace period. */
  readonly livezFrom: number;
}

const TEXT_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' } as const;

const POST_START_HOOK_PREFIX = 'poststarthook/';

/** Go's `%q` for check names, as kube quotes them in the exclusion warning. */
function quote(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-9a-f]{2})/g, '\\x$1');
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Settles with the check's outcome, or rejects with the abort reason if `signal` fires first. */
function runCheck(check: Check, signal: AbortSignal): Promise<unknown | undefined> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(() => check.fn(signal))
      .then(
        () => resolve(undefined),
        (err: unknown) => resolve(err ?? new Error('check failed')),
      )
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Named health checks behind `/healthz`, `/livez` and `/readyz`, with kube-apiserver's output.
 *
 * Built in: `ping` and `log` on all three endpoints, and `shutdown` on `/readyz` only (always
 * listed last), which fails once {@link markShuttingDown} is called. Other layers add theirs
 * (`etcd`, `poststarthook/<name>`, ...) with {@link registerCheck}. Checks of one request run
 * concurrently; output keeps registration order. Safe to use from concurrent requests.
 */
export class HealthRegistry {
  readonly #clock: Clock;
  readonly #livezGracePeriodMs: number;
  readonly #logger: Logger;
  #onFirstReady: (() => void) | undefined;
  readonly #checks: Check[] = [];
  readonly #pendingHooks = new Set<string>();
  readonly #knownHooks = new Set<string>();
  #shuttingDown = false;

  constructor(options: HealthRegistryOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#livezGracePeriodMs = options.livezGracePeriodMs ?? 0;
    this.#logger = options.logger ?? silentLogger;
    this.#onFirstReady = options.onFirstReady;
    this.registerCheck('ping', async () => {});
    this.registerCheck('log', options.logCheck ?? (async () => {}));
  }

  /**
   * Adds a check. Names are unique per endpoint.
   * @throws HealthRegistryError when an endpoint already has a check of that name.
   */
  registerCheck(name: string, fn: HealthCheckFn, options: RegisterCheckOptions = {}): void {
    const groups = new Set(options.groups ?? HEALTH_GROUPS);
    for (const g of groups) {
      if (this.#find(g, name) || (g === 'readyz' && name === 'shutdown')) {
        throw new HealthRegistryError('DuplicateCheck', `health check ${quote(name)} is already registered for /${g}`);
      }
    }
    const delayed = options.bootSequence === true && this.#livezGracePeriodMs > 0;
    const livezFrom = delayed ? this.#clock.now().getTime() + this.#livezGracePeriodMs : 0;
    this.#checks.push({ name, fn, groups, livezFrom });
  }

  /**
   * Adds the boot-sequence check `poststarthook/<name>` on all endpoints; it fails with
   * `not finished` until {@link markPostStartHookDone}.
   */
  registerPostStartHook(name: string): void {
    const checkName = POST_START_HOOK_PREFIX + name;
    this.registerCheck(
      checkName,
      async () => {
        if (this.#pendingHooks.has(name)) throw new Error('not finished');
      },
      { bootSequence: true },
    );
    this.#knownHooks.add(name);
    this.#pendingHooks.add(name);
  }

  /**
   * Marks a post-start hook complete; idempotent.
   * @throws HealthRegistryError for a hook never registered.
   */
  markPostStartHookDone(name: string): void {
    if (!this.#knownHooks.has(name)) {
      throw new HealthRegistryError('UnknownPostStartHook', `post-start hook ${quote(name)} is not registered`);
    }
    this.#pendingHooks.delete(name);
  }

  /** From now on `/readyz` fails its `shutdown` check; `/livez` and `/healthz` are unaffected. Irreversible. */
  markShuttingDown(): void {
    this.#shuttingDown = true;
  }

  /** Check names served on `group`, in output order. */
  checkNames(group: HealthGroup): string[] {
    return this.#checksOf(group).map((c) => c.name);
  }

  /**
   * Serves `GET /<group><subpath>`. `subpath` is what follows the group path: `''` for the
   * aggregate, `/<check>` for one check (`/poststarthook/<hook>` included).
   *
   * Aggregate: 200 `ok`; with `verbose` one `[+]<check> ok` line per check and a final
   * `<group> check passed`; `exclude=<check>` (repeatable) turns a check into
   * `[+]<check> excluded: ok`, and names matching no check add
   * `warn: some health checks cannot be excluded: no matches for "<a>","<b>"`. Any failure gives
   * 500 with every line, failures as `[-]<check> failed: reason withheld`, and `<group> check failed`.
   * Single check: 200 `ok`, 500 `internal server error: <reason>`, 404 Status for an unknown name.
   *
   * @throws the abort reason when `signal` aborts before the checks settle.
   */
  async handleHealthRequest(
    group: HealthGroup,
    subpath: string,
    query: URLSearchParams,
    signal: AbortSignal,
  ): Promise<HealthResponse> {
    signal.throwIfAborted();
    if (subpath !== '') return this.#single(group, subpath, signal);
    const checks = this.#checksOf(group);
    // Every check of the group listens to the request's signal at once, by design.
    expectListeners(signal, checks.length + 1);
    const excluded = new Set(query.getAll('exclude'));
    const outcomes = await Promise.all(
      checks.map((check) =>
        excluded.has(check.name) ? Promise.resolve('excluded' as const) : this.#run(group, check, signal),
      ),
    );
    let body = '';
    const failed: string[] = [];
    checks.forEach((check, i) => {
      const outcome = outcomes[i];
      excluded.delete(check.name);
      if (outcome === 'excluded') body += `[+]${check.name} excluded: ok\n`;
      else if (outcome === undefined) body += `[+]${check.name} ok\n`;
      else {
        body += `[-]${check.name} failed: reason withheld\n`;
        failed.push(`[-]${check.name} failed: ${reasonOf(outcome)}`);
      }
    });
    if (excluded.size > 0) {
      const names = [...excluded].sort().map(quote).join(',');
      body += `warn: some health checks cannot be excluded: no matches for ${names}\n`;
      this.#logger.warn(`cannot exclude some health checks, no health checks are installed matching ${names}`, {
        group,
      });
    }
    if (failed.length > 0) {
      this.#logger.info(`${group} check failed`, { group, failed });
      return { status: 500, body: `${body}${group} check failed\n`, headers: { ...TEXT_HEADERS } };
    }
    if (group === 'readyz' && this.#onFirstReady) {
      const notify = this.#onFirstReady;
      this.#onFirstReady = undefined;
      notify();
    }
    if (!query.has('verbose')) return { status: 200, body: 'ok', headers: { ...TEXT_HEADERS } };
    return { status: 200, body: `${body}${group} check passed\n`, headers: { ...TEXT_HEADERS } };
  }

  async #single(group: HealthGroup, subpath: string, signal: AbortSignal): Promise<HealthResponse> {
    const check = subpath.startsWith('/') ? this.#checksOf(group).find((c) => c.name === subpath.slice(1)) : undefined;
    if (!check) {
      const status = new StatusError(
        404,
        'NotFound',
        'the server could not find the requested resource',
        {},
      ).toStatus();
      return {
        status: 404,
        body: JSON.stringify(status),
        headers: { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff' },
      };
    }
    const outcome = await this.#run(group, check, signal);
    if (outcome === undefined) return { status: 200, body: 'ok', headers: { ...TEXT_HEADERS } };
    return { status: 500, body: `internal server error: ${reasonOf(outcome)}\n`, headers: { ...TEXT_HEADERS } };
  }

  /** Resolves to undefined on success or the failure. */
  async #run(group: HealthGroup, check: Check, signal: AbortSignal): Promise<unknown | undefined> {
    // Kube compares with "after": at exactly the end of the grace period the check still passes.
    if (group === 'livez' && check.livezFrom > 0 && this.#clock.now().getTime() <= check.livezFrom) return undefined;
    return runCheck(check, signal);
  }

  #find(group: HealthGroup, name: string): Check | undefined {
    return this.#checks.find((c) => c.name === name && c.groups.has(group));
  }

  #checksOf(group: HealthGroup): Check[] {
    const checks = this.#checks.filter((c) => c.groups.has(group));
    if (group === 'readyz') checks.push(this.#shutdownCheck);
    return checks;
  }

  readonly #shutdownCheck: Check = {
    name: 'shutdown',
    groups: new Set<HealthGroup>(['readyz']),
    livezFrom: 0,
    fn: async () => {
      if (this.#shuttingDown) throw new Error('process is shutting down');
    },
  };
}
