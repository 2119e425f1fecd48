import assert from 'node:assert/strict';
import type { ApiObject } from '../../apis/object.js';
import type { Schema } from '../../apis/schema/schema.js';
import type { Clock } from '../../util/clock.js';
import { stringifyJson } from '../../util/json-text.js';
import { ApplyConflictError } from '../errors.js';
import { createFieldManager, type FieldManager, type FieldManagerConfig, type WriteOptions } from '../field-manager.js';
import { cloneValue } from '../object-helpers.js';

/** A clock that starts at 2024-01-01T00:00:00Z and advances one second per reading. */
export function tickingClock(): Clock {
  let t = Date.UTC(2024, 0, 1);
  return {
    now: () => {
      const d = new Date(t);
      t += 1000;
      return d;
    },
  };
}

type Obj = Record<string, unknown>;

/**
 * A sequence of writes to one object, as structured-merge-diff's tests are written: each step is
 * (manager, apply or update, object); the test then checks the object and who owns what. The
 * scenario plays the registry's part: it gives the object a uid and resourceVersion on creation.
 */
export class Scenario {
  readonly fm: FieldManager;
  live: ApiObject | undefined;
  private rv = 0;

  constructor(config: Omit<FieldManagerConfig, 'clock'> & { schema: Schema }) {
    this.fm = createFieldManager({ ...config, clock: tickingClock() });
  }

  apply(manager: string, config: Obj, opts: WriteOptions & { force?: boolean } = {}): ApiObject {
    const out = this.fm.apply(this.live, config as ApiObject, manager, opts.force ?? false, opts);
    return this.store(out);
  }

  /** A non-apply write: `next` is the whole new object, or a function of (a copy of) the live one. */
  update(manager: string, next: Obj | ((live: Obj) => Obj), opts: WriteOptions = {}): ApiObject {
    const obj = typeof next === 'function' ? next(cloneValue(this.live ?? {}) as Obj) : next;
    return this.store(this.fm.update(this.live, obj as ApiObject, manager, opts));
  }

  /** Asserts that the apply conflicts and returns the error; the object is unchanged. */
  conflict(manager: string, config: Obj, opts: WriteOptions = {}): ApplyConflictError {
    const before = stringifyJson(this.live);
    let caught: unknown;
    try {
      this.fm.apply(this.live, config as ApiObject, manager, false, opts);
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof ApplyConflictError, `expected a conflict, got ${String(caught)}`);
    assert.equal(stringifyJson(this.live), before);
    return caught;
  }

  /** The object without metadata bookkeeping (managedFields, uid, resourceVersion). */
  object(): Obj {
    const o = cloneValue(this.live) as Obj & { metadata: Obj };
    const { managedFields: _m, uid: _u, resourceVersion: _r, ...metadata } = o.metadata;
    return { ...o, metadata };
  }

  /** `manager/Operation[/subresource]` → fieldsV1 JSON, in managedFields order. */
  owners(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of (this.live?.metadata.managedFields ?? []) as Obj[]) {
      const key = `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`;
      out[key] = JSON.stringify(e.fieldsV1);
    }
    return out;
  }

  private store(out: ApiObject): ApiObject {
    const metadata = { ...out.metadata, resourceVersion: String(++this.rv) };
    if (!metadata.uid) metadata.uid = 'uid-1';
    this.live = { ...out, metadata };
    return this.live;
  }
}
