import type { ApiDomain } from '../../apis/api-domain.js';
import { encodeYaml } from '../../encoding/index.js';
import { encodeControllerManagerConfiguration } from './decode.js';
import type { CloudControllerManagerConfiguration, OrchControllerManagerConfiguration } from './types.js';

/**
 * The effective configuration as `--write-config-to` writes it: YAML with `apiVersion` and
 * `kind`, every member present (defaults applied), member names in `domain`'s spelling, keys
 * sorted as kube's YAML serializer sorts them. Decoding the output yields the same configuration.
 */
export function formatEffectiveConfiguration(
  config: OrchControllerManagerConfiguration | CloudControllerManagerConfiguration,
  domain: ApiDomain,
): string {
  return encodeYaml(encodeControllerManagerConfiguration(config, domain));
}
