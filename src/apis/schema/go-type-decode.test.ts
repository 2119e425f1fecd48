import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../builtin.js';
import { goTypeDecodeError } from './go-type-decode.js';

const pod = builtinResources().find((d) => d.group === '' && d.kind === 'Pod')!.schema;

describe('goTypeDecodeError', () => {
  const container = { name: 'a', image: 'b' };
  const cases: Array<{ name: string; value: unknown; expected?: string }> = [
    {
      name: 'a well-typed pod',
      value: { metadata: { name: 'p', labels: { a: 'b' } }, spec: { containers: [container] } },
    },
    { name: 'null fits every field', value: { metadata: null, spec: { containers: null, restartPolicy: null } } },
    {
      name: 'types with a decoder of their own are left to validation',
      value: {
        metadata: { creationTimestamp: 5 },
        spec: {
          containers: [
            { ...container, resources: { limits: { cpu: 0.5 } }, readinessProbe: { httpGet: { port: 'http' } } },
          ],
        },
      },
    },
    {
      name: 'a string for a struct',
      value: { spec: 'x' },
      expected: 'json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec',
    },
    {
      name: 'a number for a list',
      value: { spec: { containers: 5 } },
      expected: 'json: cannot unmarshal number into Go struct field PodSpec.spec.containers of type []v1.Container',
    },
    {
      name: 'a string item of a list of structs',
      value: { spec: { containers: [null, 'x'] } },
      expected: 'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type v1.Container',
    },
    {
      name: 'a field of a struct in a list: the innermost struct, the field path without positions',
      value: { spec: { containers: [{ name: 7 }] } },
      expected: 'json: cannot unmarshal number into Go struct field Container.spec.containers.name of type string',
    },
    {
      name: 'a map value: the map key is not part of the path',
      value: { metadata: { labels: { a: true } } },
      expected: 'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string',
    },
    {
      name: 'an object for an integer',
      value: { spec: { containers: [container], terminationGracePeriodSeconds: {} } },
      expected:
        'json: cannot unmarshal object into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64',
    },
    {
      name: 'the first in document order',
      value: { spec: { hostname: 1, containers: 'x' } },
      expected: 'json: cannot unmarshal number into Go struct field PodSpec.spec.hostname of type string',
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(goTypeDecodeError(pod, c.value), c.expected));
  }
});
