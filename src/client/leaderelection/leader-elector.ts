import { formatMicroTime } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { errorText, isStatus } from '../client-support.js';
import { deadlineSignal, type ElectionClock, systemElectionClock } from './election-clock.js';
import { JITTER_FACTOR, type LeaderElectionTimings } from './leader-election-configuration.js';
import { type LeaderElectionRecord, LeaseLock } from './lease-lock.js';

/** What a candidate does when its role changes. */
export interface LeaderCallbacks {
  /**
   * Called when this candidate starts leading, with a signal that aborts when it stops. Called
   * synchronously but not awaited (it may run as long as the term lasts); errors are logged.
   */
  onStartedLeading(leading: AbortSignal): void | Promise<void>;
  /**
   * Called once when a run ends, whether or not it led; awaited before the lock is released, so
   * the work guarded by the lease can finish first.
   */
  onStoppedLeading(): void | Promise<void>;
  /** Called (asynchronously) whenever the observed holder changes, the first one included. */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectorOptions extends LeaderElectionTimings {
  readonly lock: LeaseLock;
  readonly callbacks: LeaderCallbacks;
  /**
   * Give the lease up (empty holder, 1 s duration) when the run ends: the next candidate need
   * not wait the lease out.
   */
  readonly releaseOnCancel?: boolean;
  /**
   * Coordinated leader election: never create or take over the Lease; lead only while the
   * election controller names this candidate (`holderIdentity`), and step down as soon as it
   * names another (`preferredHolder`).
   */
  readonly coordinated?: boolean;
  /** Name of the election in logs. */
  readonly name?: string;
  readonly clock?: ElectionClock;
  /** Source of jitter in [0, 1); default Math.random. */
  readonly random?: () => number;
  readonly logger?: Logger;
}

/** Why a term ended. */
type StopCause = 'cancelled' | 'renew deadline' | 'preferred holder';

/**
 * client-go's `LeaderElector` (v1.32) on a {@link LeaseLock}: acquire, renew, release, callbacks.
 *
 * Safety: a candidate takes a lease over only after a full `leaseDuration` in which it saw the
 * record unchanged, timed on its own monotonic clock from the moment it observed the last
 * change. The holder stops believing it leads `renewDeadline` after it *sent* its last successful
 * renewal (earlier than any observer can have seen it), whether or not a request is still in
 * flight: {@link isLeader} reads the clock, and the leading signal aborts at that instant. With
 * `renewDeadline < leaseDuration` the two intervals cannot overlap, so two candidates never lead
 * at once (short of clocks that run at different rates by more than the ratio of the two). There
 * is no fencing: work must watch the leading signal.
 *
 * Writes use the Lease's resourceVersion, so two candidates racing from the same read cannot both
 * win. One `run` at a time; `run` may be called again after it returned.
 */
export class LeaderElector {
  private readonly clock: ElectionClock;
  private readonly random: () => number;
  private readonly logger: Logger;
  private observed: LeaderElectionRecord | undefined;
  private observedRaw: string | undefined;
  /** Monotonic time at which the observed record last changed (or was written by us). */
  private observedAt = 0;
  private reportedLeader: string | undefined;
  /** Monotonic time at which the last successful acquisition or renewal was sent. */
  private renewSentAt = Number.NEGATIVE_INFINITY;
  private leading: AbortController | undefined;
  private stopCause: StopCause | undefined;

  constructor(private readonly options: LeaderElectorOptions) {
    const problems: string[] = [];
    if (options.leaseDurationMs <= options.renewDeadlineMs)
      problems.push('leaseDuration must be greater than renewDeadline');
    if (options.renewDeadlineMs <= JITTER_FACTOR * options.retryPeriodMs) {
      problems.push('renewDeadline must be greater than retryPeriod*JitterFactor');
    }
    if (options.leaseDurationMs < 1) problems.push('leaseDuration must be greater than zero');
    if (options.renewDeadlineMs < 1) problems.push('renewDeadline must be greater than zero');
    if (options.retryPeriodMs < 1) problems.push('retryPeriod must be greater than zero');
    if (problems.length > 0) throw new Error(problems.join('; '));
    this.clock = options.clock ?? systemElectionClock;
    this.random = options.random ?? Math.random;
    this.logger = options.logger ?? silentLogger;
  }

  /** This candidate's identity. */
  get identity(): string {
    return this.options.lock.identity;
  }

  /** The last observed holder ('' when none has been seen). For information only. */
  getLeader(): string {
    return this.observed?.holderIdentity ?? '';
  }

  /**
   * Whether this candidate leads now: it holds the lease and its last renewal was sent less than
   * `renewDeadline` ago. Past that instant this returns false (and ends the term) even if the
   * timers that end terms have not fired yet, e.g. right after the process was paused.
   */
  isLeader(): boolean {
    if (!this.leading || this.leading.signal.aborted) return false;
    if (this.clock.monotonicMs() >= this.renewSentAt + this.options.renewDeadlineMs) {
      this.endTerm('renew deadline');
      return false;
    }
    return true;
  }

  /**
   * While leading, the monotonic time (`clock.monotonicMs()`) up to which this candidate may act
   * as leader without renewing again: `renewDeadline` after its last renewal was sent. Work that
   * must not overlap another leader's can check it finishes before then. Undefined otherwise.
   */
  leadingUntil(): number | undefined {
    return this.isLeader() ? this.renewSentAt + this.options.renewDeadlineMs : undefined;
  }

  /**
   * Campaigns until the lease is acquired, leads while renewals succeed, and returns when the
   * term ends (renewal failed until `renewDeadline`, another holder was preferred) or `signal`
   * aborts. `onStoppedLeading` runs before it returns, then the lease is released if
   * `releaseOnCancel`.
   */
  async run(signal: AbortSignal): Promise<void> {
    this.stopCause = undefined;
    let acquired = false;
    try {
      acquired = await this.acquire(signal);
      if (!acquired) return;
      const leading = new AbortController();
      this.leading = leading;
      this.logger.info('leader election: started leading', { lease: this.describe(), identity: this.identity });
      // Called before anything else can end the term, so onStoppedLeading always follows it.
      const failed = (e: unknown) =>
        this.logger.error('leader election: OnStartedLeading failed', { error: errorText(e) });
      try {
        void Promise.resolve(this.options.callbacks.onStartedLeading(leading.signal)).catch(failed);
      } catch (e) {
        failed(e);
      }
      await this.renewLoop(signal);
    } finally {
      if (acquired) this.endTerm(this.stopCause ?? 'cancelled');
      this.leading = undefined;
      await Promise.resolve(this.options.callbacks.onStoppedLeading()).catch((e) =>
        this.logger.error('leader election: OnStoppedLeading failed', { error: errorText(e) }),
      );
      if (acquired && this.options.releaseOnCancel) await this.release();
    }
  }

  private describe(): string {
    return this.options.name ?? this.options.lock.describe();
  }

  /** Ends the current term once: aborts the leading signal. */
  private endTerm(cause: StopCause): void {
    if (!this.leading || this.leading.signal.aborted) return;
    this.stopCause ??= cause;
    this.logger.info('leader election: stopped leading', { lease: this.describe(), reason: cause });
    this.leading.abort(new Error(`leader election lost: ${cause}`));
  }

  /**
   * Retries every retryPeriod × [1, 2.2) until acquired (true) or aborted (false), and once more
   * as soon as the observed lease runs out if that comes first: client-go waits for its next
   * jittered tick, up to 2.2 retry periods after the expiry, before it tries again.
   */
  private async acquire(signal: AbortSignal): Promise<boolean> {
    this.logger.info('leader election: attempting to acquire leader lease', { lease: this.describe() });
    while (!signal.aborted) {
      const ok = await this.tryOnce(signal);
      this.maybeReportTransition();
      if (ok) return true;
      const jittered = this.options.retryPeriodMs * (1 + this.random() * JITTER_FACTOR);
      await this.clock.sleep(Math.min(jittered, this.untilObservedExpiry()), signal);
    }
    return false;
  }

  /** How long until the observed lease of another holder runs out (never less than 1 ms). */
  private untilObservedExpiry(): number {
    if (!this.observed || this.isHolder() || !this.observed.holderIdentity) return Number.POSITIVE_INFINITY;
    const expiresAt = this.observedAt + (this.observed.leaseDurationSeconds ?? 0) * 1000;
    return Math.max(1, expiresAt - this.clock.monotonicMs() + 1);
  }

  /**
   * Renews every retryPeriod; after a failure retries every retryPeriod until the deadline
   * (`renewDeadline` after the last successful renewal was sent), then the term ends.
   */
  private async renewLoop(signal: AbortSignal): Promise<void> {
    const leading = this.leading!;
    const term = AbortSignal.any([signal, leading.signal]);
    // Ends the term at the deadline even while a renewal hangs.
    void this.watchDeadline(term);
    while (!term.aborted) {
      await this.clock.sleep(this.options.retryPeriodMs, term);
      let renewed = false;
      while (!signal.aborted && this.isLeader()) {
        const deadline = this.renewSentAt + this.options.renewDeadlineMs;
        const attempt = deadlineSignal(this.clock, deadline, signal);
        try {
          renewed = await this.tryOnce(attempt.signal);
        } finally {
          attempt.dispose();
        }
        this.maybeReportTransition();
        if (renewed || this.stopCause) break;
        const wait = Math.min(this.options.retryPeriodMs, deadline - this.clock.monotonicMs());
        await this.clock.sleep(wait, term);
      }
      if (!renewed) {
        if (!signal.aborted) this.endTerm(this.stopCause ?? 'renew deadline');
        return;
      }
    }
  }

  private async watchDeadline(term: AbortSignal): Promise<void> {
    while (!term.aborted) {
      const left = this.renewSentAt + this.options.renewDeadlineMs - this.clock.monotonicMs();
      if (left <= 0) {
        this.endTerm('renew deadline');
        return;
      }
      await this.clock.sleep(left, term);
    }
  }

  private tryOnce(signal: AbortSignal): Promise<boolean> {
    return this.options.coordinated ? this.tryCoordinatedRenew(signal) : this.tryAcquireOrRenew(signal);
  }

  private isHolder(): boolean {
    return this.observed?.holderIdentity === this.identity;
  }

  /** The observed record is within its lease duration, timed from when we saw it change. */
  private isLeaseValid(nowMs: number): boolean {
    return this.observedAt + (this.observed?.leaseDurationSeconds ?? 0) * 1000 > nowMs;
  }

  private setObserved(record: LeaderElectionRecord, atMs: number): void {
    this.observed = record;
    this.observedRaw = LeaseLock.raw(record);
    this.observedAt = atMs;
  }

  /** Our own write succeeded: it was sent at `sentAt`. */
  private wrote(record: LeaderElectionRecord, sentAt: number): void {
    this.setObserved(record, this.clock.monotonicMs());
    this.renewSentAt = sentAt;
  }

  private freshRecord(): LeaderElectionRecord {
    const now = formatMicroTime(this.clock.now());
    return {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.floor(this.options.leaseDurationMs / 1000),
      renewTime: now,
      acquireTime: now,
      leaderTransitions: 0,
    };
  }

  /** Reads the lock; a changed record restarts our wait. Undefined when the Lease is absent. */
  private async observe(signal: AbortSignal): Promise<LeaderElectionRecord | undefined> {
    const { record, raw } = await this.options.lock.get(signal).catch((e) => {
      if (isStatus(e, 404)) return { record: undefined, raw: '' };
      throw e;
    });
    if (record && raw !== this.observedRaw) this.setObserved(record, this.clock.monotonicMs());
    return record;
  }

  /** client-go's `tryAcquireOrRenew`. */
  private async tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const sentAt = this.clock.monotonicMs();
    let record = this.freshRecord();
    const lock = this.options.lock;
    // 1. Fast path: the holder renews what it wrote last, without reading first.
    if (this.isHolder() && this.isLeaseValid(sentAt) && this.observed) {
      record = {
        ...record,
        acquireTime: this.observed.acquireTime,
        leaderTransitions: this.observed.leaderTransitions,
      };
      try {
        await lock.update(record, signal);
        this.wrote(record, sentAt);
        return true;
      } catch (e) {
        this.logger.warn('leader election: failed to update lock optimistically, falling back to slow path', {
          lease: this.describe(),
          error: errorText(e),
        });
      }
    }
    // 2. Read the record, or create it.
    let old: LeaderElectionRecord | undefined;
    try {
      old = await this.observe(signal);
      if (!old) {
        await lock.create(record, signal);
        this.wrote(record, sentAt);
        return true;
      }
    } catch (e) {
      this.logger.warn('leader election: error retrieving or creating resource lock', {
        lease: this.describe(),
        error: errorText(e),
      });
      return false;
    }
    // 3. Someone else holds a lease that has not expired yet (by our clock).
    if (old.holderIdentity !== '' && this.isLeaseValid(this.clock.monotonicMs()) && !this.isHolder()) return false;
    // 4. Take over, or renew.
    record = this.isHolder()
      ? { ...record, acquireTime: old.acquireTime, leaderTransitions: old.leaderTransitions }
      : { ...record, leaderTransitions: old.leaderTransitions + 1 };
    try {
      await lock.update(record, signal);
    } catch (e) {
      this.logger.warn('leader election: failed to update lock', { lease: this.describe(), error: errorText(e) });
      return false;
    }
    this.wrote(record, sentAt);
    return true;
  }

  /** client-go's `tryCoordinatedRenew`: lead only what the election controller gave us. */
  private async tryCoordinatedRenew(signal: AbortSignal): Promise<boolean> {
    const sentAt = this.clock.monotonicMs();
    let old: LeaderElectionRecord | undefined;
    try {
      old = await this.observe(signal);
    } catch (e) {
      this.logger.warn('leader election: error retrieving resource lock', {
        lease: this.describe(),
        error: errorText(e),
      });
      return false;
    }
    if (!old) return false;
    if (!this.isLeaseValid(this.clock.monotonicMs())) return false;
    if (!this.isHolder()) return false;
    if (old.preferredHolder && old.preferredHolder !== this.identity) {
      // The election controller prefers another candidate: step down now rather than hold on
      // until the deadline; the release (with releaseOnCancel) hands the lease over at once.
      this.endTerm('preferred holder');
      return false;
    }
    const record: LeaderElectionRecord = {
      ...this.freshRecord(),
      acquireTime: old.acquireTime,
      leaderTransitions: old.leaderTransitions,
      strategy: old.strategy,
    };
    try {
      await this.options.lock.update(record, signal);
    } catch (e) {
      this.logger.warn('leader election: failed to update lock', { lease: this.describe(), error: errorText(e) });
      return false;
    }
    this.wrote(record, sentAt);
    return true;
  }

  /** Gives the lease up if we hold it: empty holder, 1 s duration (others take over at once). */
  private async release(): Promise<void> {
    if (!this.isHolder() || !this.observed) return;
    const now = formatMicroTime(this.clock.now());
    const record: LeaderElectionRecord = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      renewTime: now,
      acquireTime: now,
      leaderTransitions: this.observed.leaderTransitions,
      strategy: this.observed.strategy,
    };
    const stop = new AbortController();
    const timeout = deadlineSignal(this.clock, this.clock.monotonicMs() + this.options.renewDeadlineMs, stop.signal);
    try {
      await this.options.lock.update(record, timeout.signal);
      this.setObserved(record, this.clock.monotonicMs());
      this.logger.info('leader election: released lease', { lease: this.describe() });
    } catch (e) {
      this.logger.warn('leader election: failed to release lock', { lease: this.describe(), error: errorText(e) });
    } finally {
      timeout.dispose();
    }
  }

  private maybeReportTransition(): void {
    const holder = this.observed?.holderIdentity;
    if (holder === undefined || holder === this.reportedLeader) return;
    this.reportedLeader = holder;
    const onNewLeader = this.options.callbacks.onNewLeader;
    if (onNewLeader) queueMicrotask(() => onNewLeader(holder));
  }
}
