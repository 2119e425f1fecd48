import { readFileSync } from 'node:fs';
import type { VersionInfo } from '../endpoints/discovery/discovery-handler.js';

/** The Kubernetes API level Orch serves: clients compare it with their own version. */
const KUBE_MAJOR = '1';
const KUBE_MINOR = '32';

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** `/version`: kube's shape, with Orch's own version as build metadata of the API level. */
export function versionInfo(): VersionInfo {
  const orch = packageVersion();
  return {
    major: KUBE_MAJOR,
    minor: KUBE_MINOR,
    gitVersion: `v${KUBE_MAJOR}.${KUBE_MINOR}.0+orch.${orch}`,
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

/** The API level as a version (`1.32.0`): metric deprecation compares against it. */
export function apiLevel(): string {
  return `${KUBE_MAJOR}.${KUBE_MINOR}.0`;
}
