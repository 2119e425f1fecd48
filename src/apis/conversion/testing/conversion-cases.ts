/**
 * Test table of manifest conversions: an old (or served) manifest, the target version and the
 * manifest expected in it. Shared by the conversion unit tests and the end-to-end test that
 * creates every expected object on a real server. `served` is false for the targets the server
 * does not serve yet (admissionregistration and apiregistration v1).
 */
import type { ApiDomain } from '../../api-domain.js';
import { type CaseContext, type ConversionCase, caseContext, obj } from './case-support.js';
import { clusterCases } from './cluster-cases.js';
import { scalingCases } from './scaling-cases.js';
import { workloadCases } from './workload-cases.js';

export type { ConversionCase } from './case-support.js';

function passThrough(c: CaseContext): ConversionCase[] {
  return [
    // served kinds pass through
    {
      name: 'core v1 ConfigMap without an output version stays v1',
      input: obj('v1', 'ConfigMap', 'cm', { data: { a: 'b' } }, c.ns),
      expected: obj('v1', 'ConfigMap', 'cm', { data: { a: 'b' } }, c.ns),
      served: true,
    },
  ];
}

/** The cases, group names from `domain`; `csrRequest` is the base64 PEM request the CSRs carry. */
export function conversionCases(d: ApiDomain, csrRequest = 'cmVxdWVzdA=='): ConversionCase[] {
  const c = caseContext(d, csrRequest);
  return [...workloadCases(c), ...scalingCases(c), ...clusterCases(c), ...passThrough(c)];
}
