import type { CelProgram } from './program.js';

/**
 * Compiled programs by environment and expression, least recently used dropped first. One per
 * environment set, shared by all its environments (keys carry the environment's key).
 */
export class ProgramCache {
  readonly #programs = new Map<string, CelProgram>();

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 0) throw new RangeError(`invalid program cache size ${capacity}`);
  }

  get size(): number {
    return this.#programs.size;
  }

  get(environmentKey: string, expression: string): CelProgram | undefined {
    const key = `${environmentKey}\u0000${expression}`;
    const program = this.#programs.get(key);
    if (program !== undefined) {
      // Re-insert: a Map iterates in insertion order, so the first entry is the least recent.
      this.#programs.delete(key);
      this.#programs.set(key, program);
    }
    return program;
  }

  set(environmentKey: string, expression: string, program: CelProgram): void {
    if (this.capacity === 0) return;
    this.#programs.set(`${environmentKey}\u0000${expression}`, program);
    if (this.#programs.size > this.capacity) this.#programs.delete(this.#programs.keys().next().value as string);
  }
}
