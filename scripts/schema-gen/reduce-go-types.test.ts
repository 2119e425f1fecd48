import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SchemaGenError } from './facts.js';
import { type GoSourceReader, type GoSourceRepo, GoUniverse } from './go-universe.js';
import type { ModuleConfig } from './module-config.js';
import { RBAC_MODULE } from './rbac-config.js';
import { kubeRepos, reduceGoTypes } from './reduce-go-types.js';
import { renderSchemaModule } from './render-schema-module.js';

/**
 * The Go reducer over small in-memory packages written like kube's API packages: each rule of
 * openapi-gen it follows, the protobuf facts it reads from struct tags, and what it refuses.
 */

const META_TYPES = `package v1

type TypeMeta struct {
	Kind string \`json:"kind,omitempty" protobuf:"bytes,1,opt,name=kind"\`
	APIVersion string \`json:"apiVersion,omitempty" protobuf:"bytes,2,opt,name=apiVersion"\`
}

type ObjectMeta struct {
	Name string \`json:"name,omitempty" protobuf:"bytes,1,opt,name=name"\`
}

type Time struct{}
`;

/** A package `k8s.io/api/demo/v1` (group `demo.k8s.io`) with `types.go` = `types`. */
function universe(types: string, extra: Record<string, string> = {}): GoUniverse {
  const files: Record<string, Record<string, string>> = {
    'kubernetes/api': {
      'demo/v1/doc.go': '// +groupName=demo.k8s.io\n\npackage v1\n',
      'demo/v1/types.go': types,
      ...extra,
    },
    'kubernetes/apimachinery': {
      'pkg/apis/meta/v1/types.go': META_TYPES,
    },
  };
  const reader: GoSourceReader = {
    list: (repo: GoSourceRepo, dir: string) =>
      Object.keys(files[repo.repository])
        .filter((p) => p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes('/'))
        .map((p) => p.slice(dir.length + 1)),
    read: (repo: GoSourceRepo, path: string) => files[repo.repository][path],
    commit: () => '0123456789abcdef0123456789abcdef01234567',
  };
  return new GoUniverse(kubeRepos('/api', '/apimachinery', 'v0.0.0'), reader);
}

const DEMO = 'io.k8s.api.demo.v1';
const REF = '#/components/schemas/';

/** A module of `types` (with descriptions where given) from package demo/v1; meta/v1 types are referenced. */
function config(types: ModuleConfig['types']): ModuleConfig {
  return { ...RBAC_MODULE, goPackage: 'k8s.io/api/demo/v1', types, uses: ['meta'] };
}

const HEADER = `package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)
`;

describe('reduceGoTypes', () => {
  it('derives properties, required, types, formats and defaults as openapi-gen does', () => {
    const facts = reduceGoTypes(
      config({ [`${DEMO}.Widget`]: 'A widget.' }),
      universe(`${HEADER}
// +genclient

// Widget is a thing.
type Widget struct {
	metav1.TypeMeta \`json:",inline"\`
	// Standard metadata.
	metav1.ObjectMeta \`json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"\`
	// The spec.
	Spec WidgetSpec \`json:"spec" protobuf:"bytes,2,opt,name=spec"\`
}

type WidgetSpec struct {
	Name string \`json:"name" protobuf:"bytes,1,opt,name=name"\`
	// +optional
	Note string \`json:"note" protobuf:"bytes,2,opt,name=note"\`
	Count int32 \`json:"count,omitempty" protobuf:"varint,3,opt,name=count"\`
	Size *int64 \`json:"size,omitempty" protobuf:"varint,4,opt,name=size"\`
	Ratio float64 \`json:"ratio" protobuf:"fixed64,5,opt,name=ratio"\`
	On bool \`json:"on" protobuf:"varint,6,opt,name=on"\`
	Data []byte \`json:"data,omitempty" protobuf:"bytes,7,opt,name=data"\`
	Port intstr.IntOrString \`json:"port,omitempty" protobuf:"bytes,8,opt,name=port"\`
	When metav1.Time \`json:"when" protobuf:"bytes,9,opt,name=when"\`
	Tags []string \`json:"tags,omitempty" protobuf:"bytes,10,rep,name=tags"\`
	Labels map[string]string \`json:"labels,omitempty" protobuf:"bytes,11,rep,name=labels"\`
	Parts []Part \`json:"parts,omitempty" protobuf:"bytes,12,rep,name=parts"\`
	// +default="blue"
	Color *string \`json:"color,omitempty" protobuf:"bytes,13,opt,name=color"\`
	Internal string \`json:"-"\`
	// +required
	Kind Shape \`json:"kind,omitempty" protobuf:"bytes,14,opt,name=kind"\`
}

type Part struct {
	ID string \`json:"id" protobuf:"bytes,1,opt,name=id"\`
}

// +enum
type Shape string

const (
	ShapeSquare Shape = "Square"
	ShapeCircle Shape = "Circle"
	notAShape = "Triangle"
)
`),
    );
    const spec = facts.schemas[`${DEMO}.WidgetSpec`];
    assert.deepEqual(spec.required, ['name', 'ratio', 'on', 'when', 'kind']);
    assert.deepEqual(spec.properties, {
      color: { default: 'blue', type: 'string' },
      count: { format: 'int32', type: 'integer' },
      data: { format: 'byte', type: 'string' },
      kind: { enum: ['Circle', 'Square'], type: 'string' },
      labels: { additionalProperties: { default: '', type: 'string' }, type: 'object' },
      name: { default: '', type: 'string' },
      note: { default: '', type: 'string' },
      on: { default: false, type: 'boolean' },
      parts: { items: { allOf: [{ $ref: `${REF}${DEMO}.Part` }], default: {} }, type: 'array' },
      port: { $ref: `${REF}io.k8s.apimachinery.pkg.util.intstr.IntOrString` },
      ratio: { default: 0, format: 'double', type: 'number' },
      size: { format: 'int64', type: 'integer' },
      tags: { items: { default: '', type: 'string' }, type: 'array' },
      when: { $ref: `${REF}io.k8s.apimachinery.pkg.apis.meta.v1.Time` },
    });
    const widget = facts.schemas[`${DEMO}.Widget`];
    assert.deepEqual(widget['x-kubernetes-group-version-kind'], [
      { group: 'demo.k8s.io', kind: 'Widget', version: 'v1' },
    ]);
    assert.deepEqual(widget.required, ['spec']);
    assert.deepEqual(widget.properties, {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      // Described fields holding a named type are wrapped in allOf, as kube's v3 documents do.
      metadata: { allOf: [{ $ref: `${REF}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` }], default: {} },
      spec: { allOf: [{ $ref: `${REF}${DEMO}.WidgetSpec` }], default: {} },
    });
    assert.deepEqual(Object.keys(facts.schemas).sort(), [`${DEMO}.Part`, `${DEMO}.Widget`, `${DEMO}.WidgetSpec`]);
    const pb = facts.protobuf[`${DEMO}.WidgetSpec`];
    assert.deepEqual(pb.size, { number: 4, label: 'optional', type: 'int64', pointer: true });
    assert.deepEqual(pb.color, { number: 13, label: 'optional', type: 'string', pointer: true });
    assert.deepEqual(pb.labels, { number: 11, label: 'map', type: 'map<string, string>' });
    assert.deepEqual(pb.parts, { number: 12, label: 'repeated', type: 'Part' });
    assert.deepEqual(pb.port, {
      number: 8,
      label: 'optional',
      type: 'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
    });
    assert.deepEqual(pb.data, { number: 7, label: 'optional', type: 'bytes' });
    assert.deepEqual(Object.keys(facts.protobuf[`${DEMO}.Widget`]), ['metadata', 'spec']);
    const source = facts.source as { repositories: { repository: string; tag: string; paths: string[] }[] };
    assert.deepEqual(
      source.repositories.map((r) => [r.repository, r.tag, r.paths]),
      [
        ['kubernetes/api', 'v0.0.0', ['demo/v1/doc.go', 'demo/v1/types.go']],
        ['kubernetes/apimachinery', 'v0.0.0', ['pkg/apis/meta/v1/types.go']],
      ],
    );
  });

  it('flattens inlined structs into JSON and keeps them as one protobuf field', () => {
    const facts = reduceGoTypes(
      config({ [`${DEMO}.Mount`]: undefined }),
      universe(`package v1

type Mount struct {
	Name string \`json:"name" protobuf:"bytes,1,opt,name=name"\`
	Source \`json:",inline" protobuf:"bytes,2,opt,name=source"\`
	ReadOnly bool \`json:"readOnly,omitempty" protobuf:"varint,3,opt,name=readOnly"\`
}

// +union
type Source struct {
	// +unionDiscriminator
	Type string \`json:"type" protobuf:"bytes,3,opt,name=type"\`
	// +optional
	Disk *Disk \`json:"disk,omitempty" protobuf:"bytes,1,opt,name=disk"\`
	// +optional
	Path string \`json:"path,omitempty" protobuf:"bytes,2,opt,name=path"\`
}

// +structType=atomic
type Disk struct {
	// +listType=map
	// +listMapKey=lun
	// +listMapKey=bus
	// +patchStrategy=merge,retainKeys
	// +patchMergeKey=lun
	Luns []Lun \`json:"luns" patchStrategy:"merge,retainKeys" patchMergeKey:"lun" protobuf:"bytes,1,rep,name=luns"\`
	// +mapType=atomic
	Options map[string]string \`json:"options,omitempty" protobuf:"bytes,2,rep,name=options"\`
}

type Lun struct {
	Lun int32 \`json:"lun" protobuf:"varint,1,opt,name=lun"\`
	Bus string \`json:"bus" protobuf:"bytes,2,opt,name=bus"\`
}
`),
    );
    const mount = facts.schemas[`${DEMO}.Mount`];
    assert.deepEqual(Object.keys(mount.properties ?? {}).sort(), ['disk', 'name', 'path', 'readOnly', 'type']);
    assert.deepEqual(mount.required, ['name', 'type']);
    assert.deepEqual(mount['x-kubernetes-unions'], [
      { discriminator: 'type', 'fields-to-discriminateBy': { disk: 'Disk', path: 'Path' } },
    ]);
    assert.deepEqual(facts.protobuf[`${DEMO}.Mount`], {
      name: { number: 1, label: 'optional', type: 'string' },
      source: { number: 2, label: 'optional', type: 'Source', inline: `${DEMO}.Source` },
      readOnly: { number: 3, label: 'optional', type: 'bool' },
    });
    assert.deepEqual(Object.keys(facts.protobuf[`${DEMO}.Source`]), ['type', 'disk', 'path']);
    assert.equal(facts.schemas[`${DEMO}.Source`], undefined, 'an inlined struct is no definition of its own');
    const disk = facts.schemas[`${DEMO}.Disk`];
    assert.equal(disk['x-kubernetes-map-type'], 'atomic');
    assert.deepEqual(disk.properties?.luns, {
      items: { allOf: [{ $ref: `${REF}${DEMO}.Lun` }], default: {} },
      type: 'array',
      'x-kubernetes-list-map-keys': ['lun', 'bus'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'lun',
      'x-kubernetes-patch-strategy': 'merge,retainKeys',
    });
    assert.equal(disk.properties?.options['x-kubernetes-map-type'], 'atomic');
  });

  it('takes +default=ref(...) from the constant and the protobuf label from the Go type', () => {
    const facts = reduceGoTypes(
      config({ [`${DEMO}.Disk`]: undefined }),
      universe(`package v1

type Disk struct {
	// +default=ref(CachingNone)
	Caching *Caching \`json:"caching,omitempty" protobuf:"bytes,1,opt,casttype=Caching"\`
	// A slice tagged opt and a string tagged rep, as some upstream tags are.
	Zones []string \`json:"zones,omitempty" protobuf:"bytes,2,opt,name=zones"\`
	Audience string \`json:"audience,omitempty" protobuf:"bytes,3,rep,name=audience"\`
}

type Caching string

const CachingNone Caching = "None"
`),
    );
    assert.deepEqual(facts.schemas[`${DEMO}.Disk`].properties?.caching, { default: 'None', type: 'string' });
    assert.equal(facts.protobuf[`${DEMO}.Disk`].zones.label, 'repeated');
    assert.equal(facts.protobuf[`${DEMO}.Disk`].audience.label, 'optional');
  });

  it('renders properties in Go order, and an omitempty zero default as published only', () => {
    const cfg = config({ [`${DEMO}.Ref`]: undefined });
    const facts = reduceGoTypes(
      cfg,
      universe(`package v1

type Ref struct {
	// Declared first, numbered last, as upstream types grow.
	// +optional
	Immutable *bool \`json:"immutable,omitempty" protobuf:"varint,3,opt,name=immutable"\`
	// +default=""
	// +optional
	Name string \`json:"name,omitempty" protobuf:"bytes,1,opt,name=name"\`
	// +optional
	Reporter string \`json:"reporter" protobuf:"bytes,2,opt,name=reporter"\`
	// +default="x"
	// +optional
	Mode *string \`json:"mode,omitempty" protobuf:"bytes,4,opt,name=mode"\`
}
`),
    );
    const pb = facts.protobuf[`${DEMO}.Ref`];
    assert.deepEqual(Object.keys(pb), ['immutable', 'name', 'reporter', 'mode']);
    // Only the zero default of a non-pointer omitempty field is one kube never writes.
    assert.equal(pb.name.omitEmpty, true);
    assert.equal(pb.reporter.omitEmpty, undefined);
    assert.equal(pb.mode.omitEmpty, undefined);
    const text = renderSchemaModule(facts, cfg);
    assert.match(text, /properties: \{ immutable: .*, name: .*, reporter: .*, mode: .* \}/s);
    // (The renderer's output before formatting, with double quotes.)
    assert.match(text, /name: \{ type: "string", "x-orch-published-default": "", "x-orch-protobuf-field": 1 \}/);
    assert.match(text, /reporter: \{ type: "string", default: "", "x-orch-protobuf-field": 2 \}/);
    assert.match(
      text,
      /mode: \{ type: "string", default: "x", "x-orch-protobuf-field": 4, "x-orch-protobuf-presence": "explicit" \}/,
    );
  });

  it("adds Orch's own markers to a property, and refuses ones upstream markers map to", () => {
    const facts = reduceGoTypes(
      config({ [`${DEMO}.Part`]: undefined }),
      universe(`package v1

type Part struct {
	// +listType=set
	Tags []string \`json:"tags,omitempty" protobuf:"bytes,1,rep,name=tags"\`
}
`),
    );
    const withMarkers = (markers: Record<string, string>): ModuleConfig => ({
      ...config({ [`${DEMO}.Part`]: undefined }),
      orchMarkers: { [`${DEMO}.Part`]: { tags: markers } },
    });
    assert.match(
      renderSchemaModule(facts, withMarkers({ 'x-orch-list-duplicates': 'allowed' })),
      /"x-orch-list-type": "set", "x-orch-list-duplicates": "allowed", "x-orch-protobuf-field": 1/,
    );
    assert.throws(
      () => renderSchemaModule(facts, withMarkers({ 'x-orch-list-type': 'atomic' })),
      (err: unknown) => err instanceof SchemaGenError && err.message.includes('is not a marker of Orch'),
    );
  });

  const refusals: [string, string, string][] = [
    [
      'a field without a protobuf tag',
      'type Thing struct {\n\tName string `json:"name"`\n}\n',
      `${DEMO}.Thing.Name: no protobuf tag`,
    ],
    [
      'a json tag without a name',
      'type Thing struct {\n\tName string `json:",omitempty" protobuf:"bytes,1,opt,name=name"`\n}\n',
      `${DEMO}.Thing.Name: a json tag without a name`,
    ],
    [
      'a +default contradicting the zero value',
      'type Thing struct {\n\t// +default="x"\n\tName string `json:"name" protobuf:"bytes,1,opt,name=name"`\n}\n',
      `${DEMO}.Thing.Name: +default contradicts the zero value of a non-pointer field`,
    ],
    [
      'an unknown type',
      'type Thing struct {\n\tPart Missing `json:"part" protobuf:"bytes,1,opt,name=part"`\n}\n',
      `${DEMO}.Thing.Part: no type Missing in k8s.io/api/demo/v1`,
    ],
    [
      'a map with non-string keys',
      'type Thing struct {\n\tM map[int32]string `json:"m" protobuf:"bytes,1,rep,name=m"`\n}\n',
      `${DEMO}.Thing.M: map keys must be strings`,
    ],
    [
      'validation markers',
      'type Thing struct {\n\t// +k8s:validation:maxLength=3\n\tN string `json:"n" protobuf:"bytes,1,opt,name=n"`\n}\n',
      `${DEMO}.Thing.N: +k8s:validation:maxLength markers are not supported`,
    ],
    [
      'Go it cannot read',
      'type Thing struct {\n\tName string `json:"name"\n}\n',
      'demo/v1/types.go:4: unterminated raw string',
    ],
  ];
  for (const [what, body, message] of refusals) {
    it(`refuses ${what}, naming where`, () => {
      assert.throws(
        () => reduceGoTypes(config({ [`${DEMO}.Thing`]: undefined }), universe(`package v1\n\n${body}`)),
        (err: unknown) => err instanceof SchemaGenError && err.message.includes(message),
      );
    });
  }
});
