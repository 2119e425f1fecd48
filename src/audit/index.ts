export * from './audit-event.js';
export * from './audit-policy.js';
export * from './log-backend.js';
export * from './policy-evaluator.js';
