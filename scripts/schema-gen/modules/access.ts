import { builtinModule } from '../externals.js';
import type { ModuleConfig } from '../module-config.js';

const COORDINATION = 'io.k8s.api.coordination.v1';

/** `coordination/v1`. */
export const COORDINATION_MODULE: ModuleConfig = builtinModule({
  name: 'coordination',
  facts: 'coordination-v1',
  goPackage: 'k8s.io/api/coordination/v1',
  output: 'src/apis/coordination/coordination-v1-schemas.ts',
  types: {
    [`${COORDINATION}.Lease`]: 'A lock held by one holder for a while and renewed, for leader election and heartbeats.',
  },
  uses: ['meta'],
});
