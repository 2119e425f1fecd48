import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../builtin.js';
import { goIntegerDecodeError } from './go-integer-decode.js';
import { goDecodeError, goTypeDecodeError } from './go-type-decode.js';

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
  for (const c of cases) {
    it(`one walk with the integer check: ${c.name}`, () => assert.equal(goDecodeError(pod, c.value), c.expected));
  }
});

describe('goDecodeError: kinds and integer ranges in one walk, the first in document order', () => {
  const port = (containerPort: unknown) => ({ name: 'a', image: 'b', ports: [{ containerPort }] });
  const tooLarge =
    'json: cannot unmarshal number 2147483648 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32';
  const hostname = 'json: cannot unmarshal number into Go struct field PodSpec.spec.hostname of type string';
  const cases: Array<{ name: string; value: unknown; expected?: string }> = [
    { name: 'a fitting int32', value: { spec: { containers: [port(8080)] } } },
    { name: 'an int32 too large', value: { spec: { containers: [port(2147483648)] } }, expected: tooLarge },
    {
      name: 'an integer error before a kind error',
      value: { spec: { containers: [port(2147483648)], hostname: 1 } },
      expected: tooLarge,
    },
    {
      name: 'a kind error before an integer error',
      value: { spec: { hostname: 1, containers: [port(2147483648)] } },
      expected: hostname,
    },
    {
      name: 'nothing inside a value of the wrong kind is read',
      value: { spec: { containers: { ports: [{ containerPort: 2147483648 }] } } },
      expected: 'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container',
    },
    {
      name: 'an int64 past 2^63 in metadata',
      value: { metadata: { generation: 9223372036854775808n }, spec: { hostname: 1 } },
      expected:
        'json: cannot unmarshal number 9223372036854775808 into Go struct field ObjectMeta.metadata.generation of type int64',
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(goDecodeError(pod, c.value), c.expected));
  }
  it('a body with one kind of error reports what that check alone reports', () => {
    for (const value of [{ spec: { containers: [port(2147483648)] } }, { spec: { hostname: 1 } }]) {
      assert.equal(goDecodeError(pod, value), goTypeDecodeError(pod, value) ?? goIntegerDecodeError(pod, value));
    }
  });
});
