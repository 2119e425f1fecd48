export { alwaysAllow, alwaysDeny } from './always.js';
export { type AttributesOptions, attributesOf, forbiddenError, forbiddenMessage } from './attributes.js';
export {
  AUTHORIZATION_MODES,
  AuthorizationModeError,
  buildAuthorizer,
  validateAuthorizationModes,
} from './authorization-modes.js';
export type { Attributes, AuthorizationResult, Authorizer, Decision } from './authorizer.js';
export { privilegedGroups } from './privileged-groups.js';
export { unionAuthorizer } from './union-authorizer.js';
