import { API_DOMAIN_NAMES, ORCH_DOMAIN } from '../../apis/api-domain.js';
import { enumFlag } from './flag-spec.js';

/** `--api-domain` of the API server's clients (controller managers, orchctl): the server's profile. */
export function clientApiDomainFlag() {
  return enumFlag({
    name: 'api-domain',
    section: 'Misc',
    values: API_DOMAIN_NAMES,
    default: ORCH_DOMAIN.name,
    usage: "The API server's --api-domain: the domain of API group names and other domain-derived names.",
  });
}
