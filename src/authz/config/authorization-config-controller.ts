import { type FSWatcher, watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { UserInfo } from '../../apis/request/user-info.js';
import type { Abortable } from '../../util/abortable.js';
import { type Clock, systemClock } from '../../util/clock.js';
import { deepEqual } from '../../util/deep-equal.js';
import type { Logger } from '../../util/logger.js';
import type { Attributes, AuthorizationResult, Authorizer } from '../authorizer.js';
import type { RulesResult } from '../rules.js';
import type { AuthorizationChain } from './authorization-chain.js';
import { type LoadedAuthorizationConfig, readFileErrorText } from './load-authorization-config.js';
import type { AuthorizationConfigReloadMetrics } from './reload-metrics.js';

/** Runs `fn` every `ms` milliseconds until the returned function is called (injected in tests). */
export type Every = (ms: number, fn: () => void) => () => void;

/** The default {@link Every}: a timer that does not keep the process alive. */
export const everyInterval: Every = (ms, fn) => {
  const timer = setInterval(fn, ms);
  timer.unref();
  return () => clearInterval(timer);
};

export interface AuthorizationConfigControllerOptions {
  readonly path: string;
  /** The configuration the server started with, and its chain. */
  readonly initial: LoadedAuthorizationConfig;
  readonly initialChain: AuthorizationChain;
  /** Decodes, validates (against the start-up types) and reads the files of a new text. @throws AuthorizationConfigError */
  load(data: string): Promise<LoadedAuthorizationConfig>;
  /** Builds the chain of a loaded configuration. @throws AuthorizationConfigError */
  build(loaded: LoadedAuthorizationConfig): AuthorizationChain;
  readonly metrics: AuthorizationConfigReloadMetrics;
  readonly logger: Logger;
  /** Stops watching, and closes every chain, when it aborts. */
  readonly lifetime: AbortSignal;
  readonly clock?: Clock;
  /** The file is re-read this often even without change events (kube-apiserver: every minute). */
  readonly pollIntervalMs?: number;
  readonly every?: Every;
  /** Watch the file's directory for changes (default true). */
  readonly watchFile?: boolean;
  /** Change events closer together than this make one reload. */
  readonly debounceMs?: number;
  /** How long a replaced chain keeps its webhook connections for requests already using it (1 minute). */
  readonly retireAfterMs?: number;
}

/**
 * Keeps the authorizer chain in step with `--authorization-config`, as kube-apiserver's reload
 * loop: the file is watched and re-read every poll interval; a changed text is decoded,
 * validated (it may not add or remove Node, RBAC or ABAC; reordering is allowed) and its chain
 * built, then swapped in at once for the requests that follow. A text that cannot be read,
 * decoded, validated or built leaves the running chain in place, is logged and counted as a
 * failed reload; a text already seen is not looked at again, and a text whose configuration is
 * unchanged (comments, formatting) changes nothing.
 */
export class AuthorizationConfigController {
  readonly #o: AuthorizationConfigControllerOptions;
  readonly #clock: Clock;
  #current: AuthorizationChain;
  #lastData: string;
  #lastConfig: LoadedAuthorizationConfig['config'];
  #watcher: FSWatcher | undefined;
  #debounce: ReturnType<typeof setTimeout> | undefined;
  #stopPolling: (() => void) | undefined;
  #queue: Promise<void> = Promise.resolve();

  /** Delegates every decision to the chain in use when the request is authorized. */
  readonly authorizer: Authorizer;

  constructor(options: AuthorizationConfigControllerOptions) {
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.#current = options.initialChain;
    this.#lastData = options.initial.data;
    this.#lastConfig = options.initial.config;
    this.authorizer = {
      authorize: (a: Attributes, request: Abortable): Promise<AuthorizationResult> =>
        this.#current.authorizer.authorize(a, request),
      rulesFor: (user: UserInfo, namespace: string, request: Abortable): Promise<RulesResult> =>
        (this.#current.authorizer.rulesFor as NonNullable<Authorizer['rulesFor']>)(user, namespace, request),
    };
  }

  /** The chain in use. */
  get current(): AuthorizationChain {
    return this.#current;
  }

  /** Starts watching and polling the file; stops when the lifetime aborts. */
  start(): void {
    const o = this.#o;
    if (o.lifetime.aborted) return;
    if (o.watchFile !== false) this.#watch();
    this.#stopPolling = (o.every ?? everyInterval)(o.pollIntervalMs ?? 60_000, () => void this.reloadNow());
    o.lifetime.addEventListener('abort', () => this.#stop(), { once: true });
  }

  #watch(): void {
    const file = basename(this.#o.path);
    try {
      // The directory, so that editors replacing the file (rename over it) are seen too.
      this.#watcher = watch(dirname(this.#o.path), { persistent: false }, (_event, name) => {
        if (name === null || name === file) this.#schedule();
      });
      this.#watcher.on('error', () => {
        this.#watcher?.close();
        this.#watcher = undefined;
      });
    } catch (e) {
      this.#o.logger.warn('watching authorization config file', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  #schedule(): void {
    if (this.#o.lifetime.aborted) return;
    if (this.#debounce) clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => {
      this.#debounce = undefined;
      void this.reloadNow();
    }, this.#o.debounceMs ?? 100);
    this.#debounce.unref();
  }

  #stop(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    if (this.#debounce) clearTimeout(this.#debounce);
    this.#stopPolling?.();
    this.#current.close();
  }

  /** Checks the file now (after any check under way); resolves when this check is done. */
  reloadNow(): Promise<void> {
    this.#queue = this.#queue.then(() => this.#check()).catch(() => undefined);
    return this.#queue;
  }

  async #check(): Promise<void> {
    const o = this.#o;
    if (o.lifetime.aborted) return;
    let data: string;
    try {
      data = await readFile(o.path, 'utf8');
    } catch (e) {
      return this.#fail(readFileErrorText(o.path, e));
    }
    if (data === this.#lastData) return;
    o.logger.info('found new authorization config data', { path: o.path });
    this.#lastData = data;
    let loaded: LoadedAuthorizationConfig;
    try {
      loaded = await o.load(data);
    } catch (e) {
      return this.#fail(e instanceof Error ? e.message : String(e));
    }
    if (deepEqual(loaded.config, this.#lastConfig)) return;
    this.#lastConfig = loaded.config;
    let next: AuthorizationChain;
    try {
      next = o.build(loaded);
    } catch (e) {
      return this.#fail(e instanceof Error ? e.message : String(e));
    }
    if (o.lifetime.aborted) {
      next.close();
      return;
    }
    const old = this.#current;
    this.#current = next;
    const retire = setTimeout(() => old.close(), o.retireAfterMs ?? 60_000);
    retire.unref();
    o.lifetime.addEventListener('abort', () => old.close(), { once: true });
    o.logger.info('reloaded authz config', { path: o.path });
    o.metrics.record('success', this.#clock.now());
  }

  #fail(error: string): void {
    this.#o.logger.error('reloading authorization config', { path: this.#o.path, error });
    this.#o.metrics.record('failure', this.#clock.now());
  }
}
