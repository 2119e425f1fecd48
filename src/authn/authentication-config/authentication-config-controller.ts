import { type FSWatcher, watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { fieldErrors } from '../../apis/meta/field-error.js';
import { type Clock, systemClock } from '../../util/clock.js';
import { deepEqual } from '../../util/deep-equal.js';
import type { Logger } from '../../util/logger.js';
import type { JwtAuthenticatorSet } from '../jwt/jwt-authenticator-set.js';
import type { TokenAuthenticator } from '../token-authenticator.js';
import { invalidConfigurationError } from './authentication-config-error.js';
import type { LoadedAuthenticationConfig } from './load-authentication-config.js';
import { readFileErrorText } from './load-authentication-config.js';
import type { AuthenticationConfigReloadMetrics } from './reload-metrics.js';

export interface AuthenticationConfigControllerOptions {
  readonly path: string;
  /** The configuration the server started with, and its authenticators. */
  readonly initial: LoadedAuthenticationConfig;
  readonly initialSet: JwtAuthenticatorSet;
  /** Decodes and validates a new text. @throws AuthenticationConfigError */
  parse(data: string): LoadedAuthenticationConfig;
  /** Builds (and starts) the authenticators of a valid configuration. */
  build(loaded: LoadedAuthenticationConfig): JwtAuthenticatorSet;
  readonly metrics: AuthenticationConfigReloadMetrics;
  readonly logger: Logger;
  /** Stops watching, and every authenticator, when it aborts. */
  readonly lifetime: AbortSignal;
  readonly clock?: Clock;
  /** The file is re-read this often even without change events (kube-apiserver: every minute). */
  readonly pollIntervalMs?: number;
  /** How long new authenticators may take to complete discovery before the reload fails (1 minute). */
  readonly updateTimeoutMs?: number;
  /** Change events closer together than this make one reload. */
  readonly debounceMs?: number;
  /** How long a replaced set keeps running for requests already using it (1 minute). */
  readonly retireAfterMs?: number;
}

/**
 * Keeps the JWT authenticators in step with the authentication configuration file, as
 * kube-apiserver's reload loop: the file is watched (and re-read every poll interval); a changed
 * text is decoded and validated, its authenticators built and, once they completed discovery,
 * swapped in at once. A file that cannot be read, decoded or validated, or whose authenticators
 * do not come up in time, leaves the running configuration in place and is logged; every outcome
 * is counted in the reload metrics. The `anonymous` section cannot change after start-up.
 */
export class AuthenticationConfigController {
  readonly #o: AuthenticationConfigControllerOptions;
  readonly #clock: Clock;
  #current: JwtAuthenticatorSet;
  #tracked: string;
  #watcher: FSWatcher | undefined;
  #debounce: ReturnType<typeof setTimeout> | undefined;
  #poll: ReturnType<typeof setInterval> | undefined;
  #chain: Promise<void> = Promise.resolve();

  /** Delegates to the current configuration's authenticators. */
  readonly token: TokenAuthenticator;

  constructor(options: AuthenticationConfigControllerOptions) {
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.#current = options.initialSet;
    this.#tracked = options.initial.data;
    this.token = {
      authenticateToken: (token, ctx) => this.#current.token.authenticateToken(token, ctx),
    };
  }

  /** The authenticators in use. */
  get current(): JwtAuthenticatorSet {
    return this.#current;
  }

  /** Starts watching the file; stops when the lifetime aborts. */
  start(): void {
    const o = this.#o;
    if (o.lifetime.aborted) return;
    this.#watch();
    this.#poll = setInterval(() => this.#schedule(0), o.pollIntervalMs ?? 60_000);
    this.#poll.unref();
    o.lifetime.addEventListener('abort', () => this.#stop(), { once: true });
  }

  #watch(): void {
    const file = basename(this.#o.path);
    try {
      // The directory, so that editors replacing the file (rename over it) are seen too.
      this.#watcher = watch(dirname(this.#o.path), { persistent: false }, (_event, name) => {
        if (name === null || name === file) this.#schedule(this.#o.debounceMs ?? 100);
      });
      this.#watcher.on('error', () => {
        this.#watcher?.close();
        this.#watcher = undefined;
      });
    } catch (e) {
      this.#o.logger.warn('watching authentication config file', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  #stop(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    if (this.#debounce) clearTimeout(this.#debounce);
    if (this.#poll) clearInterval(this.#poll);
    this.#current.close();
  }

  #schedule(delayMs: number): void {
    if (this.#o.lifetime.aborted) return;
    if (this.#debounce) clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => {
      this.#debounce = undefined;
      void this.reloadNow();
    }, delayMs);
    this.#debounce.unref();
  }

  /** Re-reads the file now (after any reload under way); resolves when this check is done. */
  reloadNow(): Promise<void> {
    this.#chain = this.#chain.then(() => this.#reload()).catch(() => undefined);
    return this.#chain;
  }

  async #reload(): Promise<void> {
    const o = this.#o;
    if (o.lifetime.aborted) return;
    let data: string;
    try {
      data = await readFile(o.path, 'utf8');
    } catch (e) {
      // Not tracked: the file may come back.
      return this.#fail('failed to read authentication config file', readFileErrorText(o.path, e));
    }
    if (data === this.#tracked) return;
    let loaded: LoadedAuthenticationConfig;
    try {
      loaded = o.parse(data);
      if (!deepEqual(loaded.config.anonymous ?? null, o.initial.config.anonymous ?? null)) {
        const changed = fieldErrors.forbidden('anonymous', 'changed from initial configuration file');
        throw invalidConfigurationError([changed]);
      }
    } catch (e) {
      // Never valid: not retried until the text changes again.
      this.#tracked = data;
      return this.#fail('failed to load authentication config', e instanceof Error ? e.message : String(e));
    }
    const next = o.build(loaded);
    const timeout = AbortSignal.timeout(o.updateTimeoutMs ?? 60_000);
    try {
      await next.whenHealthy(AbortSignal.any([timeout, o.lifetime]));
    } catch (e) {
      next.close();
      // Not tracked: the issuers may come up by the next attempt.
      return this.#fail('failed to update authentication config', e instanceof Error ? e.message : String(e));
    }
    if (o.lifetime.aborted) {
      next.close();
      return;
    }
    const old = this.#current;
    this.#current = next;
    this.#tracked = data;
    const retire = setTimeout(() => old.close(), o.retireAfterMs ?? 60_000);
    retire.unref();
    o.lifetime.addEventListener('abort', () => old.close(), { once: true });
    o.logger.info('reloaded authentication config', { path: o.path });
    o.metrics.record('success', this.#clock.now());
  }

  #fail(what: string, error: string): void {
    this.#o.logger.error(what, { path: this.#o.path, error });
    this.#o.metrics.record('failure', this.#clock.now());
  }
}
