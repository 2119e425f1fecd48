import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type Logger, silentLogger } from '../../util/logger.js';
import { LeaderElector, type LeaderElectorOptions } from './leader-elector.js';
import type { LeaseCandidateRenewer } from './lease-candidate-renewer.js';

/** kube's candidate identity: `<hostname>_<uuid>`, unique per process start. */
export function candidateIdentity(host: string = hostname()): string {
  return `${host}_${randomUUID()}`;
}

/** Work that runs while leading. */
export interface LeaderElectedWork {
  /** Stops the work and resolves once it has stopped. */
  stop(): Promise<void>;
}

export interface LeaderElectedOptions extends Omit<LeaderElectorOptions, 'callbacks'> {
  /** Starts the work when this candidate starts leading; `leading` aborts when the term ends. */
  start(leading: AbortSignal): LeaderElectedWork;
  onNewLeader?(identity: string): void;
  /**
   * Coordinated leader election (with `coordinated`): the registration kept alive for the whole
   * campaign; its name must be the lock's identity.
   */
  readonly candidate?: LeaseCandidateRenewer;
  /** Ends the campaign: the work stops, then the lease is released (with releaseOnCancel). */
  readonly signal: AbortSignal;
}

/** A campaign in progress. */
export interface LeaderElectedRun {
  readonly elector: LeaderElector;
  /** Resolves when the signal aborted and the last term is over (work stopped, lease released). */
  readonly done: Promise<void>;
}

/**
 * Runs `start`'s work only while this candidate holds the lease, and campaigns again after a
 * term ends without the signal aborting (kube-controller-manager exits instead; an embedded
 * server keeps serving and stands again). A new term starts only after the previous work has
 * stopped.
 */
export function runLeaderElected(options: LeaderElectedOptions): LeaderElectedRun {
  const logger: Logger = options.logger ?? silentLogger;
  let work: LeaderElectedWork | undefined;
  const elector = new LeaderElector({
    ...options,
    callbacks: {
      onStartedLeading: (leading) => {
        work = options.start(leading);
      },
      onStoppedLeading: async () => {
        const w = work;
        work = undefined;
        await w?.stop();
      },
      onNewLeader: options.onNewLeader,
    },
  });
  const candidate = options.candidate?.run(options.signal);
  const done = (async () => {
    while (!options.signal.aborted) {
      await elector.run(options.signal);
      if (!options.signal.aborted) {
        logger.info('leader election: term ended; campaigning again', { identity: elector.identity });
      }
    }
    await candidate;
  })();
  return { elector, done };
}
