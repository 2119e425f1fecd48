/**
 * Failures of the ClusterIP and NodePort allocators, with kube's messages (clients and tools
 * read some of them, e.g. the valid range named after `The range of valid IPs is`).
 */
export abstract class AllocationError extends Error {}

/** The value is outside the range the allocator hands out. */
export class NotInRangeError extends AllocationError {
  constructor(message: string) {
    super(message);
    this.name = 'NotInRangeError';
  }

  static ip(ip: string, validRange: string): NotInRangeError {
    return new NotInRangeError(
      `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${validRange}`,
    );
  }

  static port(validPorts: string): NotInRangeError {
    return new NotInRangeError(`provided port is not in the valid range. The range of valid ports is ${validPorts}`);
  }
}

/** The value is taken already. */
export class AlreadyAllocatedError extends AllocationError {
  constructor(what: 'IP' | 'port') {
    super(`provided ${what} is already allocated`);
    this.name = 'AlreadyAllocatedError';
  }
}

/** Nothing is left to hand out. */
export class RangeFullError extends AllocationError {
  constructor() {
    super('range is full');
    this.name = 'RangeFullError';
  }
}

/** The range's stored state does not exist yet (the repair at start creates it). */
export class AllocatorNotReadyError extends AllocationError {
  constructor(resource: string) {
    super(`cannot allocate resources of type ${resource} at this time`);
    this.name = 'AllocatorNotReadyError';
  }
}

/** The stored state belongs to another range (the flags changed; the repair at start rewrites it). */
export class RangeMismatchError extends AllocationError {
  constructor() {
    super('the provided range does not match the current range');
    this.name = 'RangeMismatchError';
  }
}
