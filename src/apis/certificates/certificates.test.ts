import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { apiDomain } from '../api-domain.js';
import type { FieldError } from '../meta/field-error.js';
import { csrCondition, csrTableColumns } from './certificates-columns.js';
import { csrFieldLabels } from './certificates-field-labels.js';
import {
  prepareCsrApprovalUpdate,
  prepareCsrForCreate,
  prepareCsrForUpdate,
  prepareCsrStatusUpdate,
} from './csr-prepare.js';
import { checkCertificateRequest } from './csr-request.js';
import {
  type CertificateSigningRequest,
  validateCsr,
  validateCsrUpdate,
  validateSignerName,
} from './csr-validation.js';
import { csrPem, csrRequestField, tamperedCsrPem } from './testing/csr-fixtures.js';

const domain = apiDomain('k8s.io');
const messages = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);
let request = '';

function csr(
  spec: CertificateSigningRequest['spec'],
  status?: CertificateSigningRequest['status'],
): CertificateSigningRequest {
  const o: CertificateSigningRequest = {
    apiVersion: 'certificates/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'c' },
    spec,
  };
  if (status) o.status = status;
  return o;
}
const valid = () => csr({ request, signerName: 'example.com/signer', usages: ['client auth'] });

before(async () => {
  request = await csrRequestField('alice');
});

describe('certificate requests', () => {
  it('verify ECDSA, RSA and Ed25519 self-signatures', async () => {
    for (const kind of ['ecdsa', 'rsa', 'ed25519'] as const) {
      assert.equal(checkCertificateRequest(Buffer.from(await csrPem('bob', kind))), undefined, kind);
    }
  });
  it('refuse other PEM types, garbage and a broken signature', async () => {
    assert.equal(checkCertificateRequest(Buffer.from('hello')), 'PEM block type must be CERTIFICATE REQUEST');
    assert.equal(
      checkCertificateRequest(Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')),
      'PEM block type must be CERTIFICATE REQUEST',
    );
    assert.equal(
      checkCertificateRequest(
        Buffer.from('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n'),
      ),
      'x509: malformed certificate request',
    );
    assert.equal(checkCertificateRequest(Buffer.from(await tamperedCsrPem('eve'))), 'x509: ECDSA verification failure');
  });
});

describe('CertificateSigningRequest rules', () => {
  it('accept a complete request', () => assert.deepEqual(validateCsr(valid(), domain), []));

  it('report every problem at once', () => {
    const bad = csr(
      {
        request: Buffer.from('--').toString('base64'),
        signerName: 'kubernetes.io/legacy-unknown',
        usages: ['client auth', 'flying', 'client auth'],
        expirationSeconds: 60,
      },
      {
        conditions: [
          { type: 'Approved', status: 'True' },
          { type: 'Denied', status: 'False' },
          { type: 'Approved', status: 'True' },
          { type: '', status: 'Maybe' },
        ],
      },
    );
    assert.deepEqual(messages(validateCsr(bad, domain)), [
      'spec.request: Invalid value: []byte{0x2d, 0x2d}: PEM block type must be CERTIFICATE REQUEST',
      `spec.usages[1]: Unsupported value: "flying": supported values: ${[
        'any',
        'cert sign',
        'client auth',
        'code signing',
        'content commitment',
        'crl sign',
        'data encipherment',
        'decipher only',
        'digital signature',
        'email protection',
        'encipher only',
        'ipsec end system',
        'ipsec tunnel',
        'ipsec user',
        'key agreement',
        'key encipherment',
        'microsoft sgc',
        'netscape sgc',
        'ocsp signing',
        's/mime',
        'server auth',
        'signing',
        'timestamping',
      ]
        .map((u) => JSON.stringify(u))
        .join(', ')}`,
      'spec.usages[2]: Duplicate value: "client auth"',
      'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
      'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)',
      'status.conditions[1].status: Unsupported value: "False": supported values: "True"',
      'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
      'status.conditions[2].type: Invalid value: "Approved": Approved and Denied conditions are mutually exclusive',
      'status.conditions[2].type: Duplicate value: "Approved"',
      'status.conditions[3].type: Required value',
      'status.conditions[3].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
    ]);
  });

  it('require a signer name and usages', () => {
    assert.deepEqual(messages(validateCsr(csr({ request }), domain)), [
      'spec.usages: Required value',
      'spec.signerName: Required value',
    ]);
  });

  const signerCases: [string, string[]][] = [
    ['example.com/a', []],
    ['example.com/a.b.c', []],
    [
      'example/a',
      ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots'],
    ],
    [
      'example.com',
      [
        'spec.signerName: Invalid value: "example.com": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
      ],
    ],
    [
      'Example.com/a',
      [
        "spec.signerName: Invalid value: \"Example.com\": validating label \"Example\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
  ];
  for (const [name, want] of signerCases) {
    it(`signer name ${name}`, () => assert.deepEqual(messages(validateSignerName(name, 'spec.signerName')), want));
  }
});

describe('CertificateSigningRequest writes', () => {
  const user = { name: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } };

  it('record the requesting user on create, whatever was sent, and no status', () => {
    const o = csr(
      {
        request,
        signerName: 'example.com/s',
        usages: ['client auth'],
        username: 'mallory',
        groups: ['system:masters'],
      },
      {
        conditions: [{ type: 'Approved', status: 'True' }],
      },
    );
    prepareCsrForCreate(o, user);
    assert.deepEqual(o.spec, {
      request,
      signerName: 'example.com/s',
      usages: ['client auth'],
      username: 'alice',
      uid: 'u-1',
      groups: ['dev', 'system:authenticated'],
      extra: { scopes: ['a', 'b'] },
    });
    assert.deepEqual(o.status, {});
  });

  it('keep spec and status on main-resource updates', () => {
    const old = valid();
    old.status = { conditions: [{ type: 'Approved', status: 'True', lastUpdateTime: 't0', lastTransitionTime: 't0' }] };
    const next = csr({ request, signerName: 'other.com/x', usages: ['server auth'], username: 'bob' }, {});
    next.metadata.labels = { a: 'b' };
    prepareCsrForUpdate(next, old);
    assert.deepEqual([next.spec, next.status, next.metadata.labels], [old.spec, old.status, { a: 'b' }]);
  });

  it('change only conditions through approval, with timestamps', () => {
    const old = valid();
    old.status = { certificate: 'Y2VydA==' };
    const next = csr(
      { request, signerName: 'changed.com/x', usages: ['server auth'] },
      {
        certificate: '',
        conditions: [{ type: 'Approved', status: 'True', reason: 'OK' }],
      },
    );
    prepareCsrApprovalUpdate(next, old, '2024-05-01T00:00:00Z');
    assert.deepEqual(next.spec, old.spec);
    assert.deepEqual(next.status, {
      certificate: 'Y2VydA==',
      conditions: [
        {
          type: 'Approved',
          status: 'True',
          reason: 'OK',
          lastUpdateTime: '2024-05-01T00:00:00Z',
          lastTransitionTime: '2024-05-01T00:00:00Z',
        },
      ],
    });
    assert.deepEqual(validateCsrUpdate(next, old, domain, { allowSettingApprovalConditions: true }), []);
  });

  it('refuse approval through status and the main resource, and removal of conditions', () => {
    const old = valid();
    const approved = csr(old.spec, { conditions: [{ type: 'Approved', status: 'True' }] });
    assert.deepEqual(messages(validateCsrUpdate(approved, old, domain, { allowSettingCertificate: true })), [
      'status.conditions: Forbidden: updates may not add a condition of type "Approved"',
    ]);
    assert.deepEqual(messages(validateCsrUpdate(old, approved, domain, { allowSettingApprovalConditions: true })), [
      'status.conditions: Forbidden: updates may not remove a condition of type "Approved"',
    ]);
    const denied = csr(old.spec, { conditions: [{ type: 'Denied', status: 'True' }] });
    const both = csr(old.spec, {
      conditions: [
        { type: 'Denied', status: 'True' },
        { type: 'Approved', status: 'True' },
      ],
    });
    assert.deepEqual(messages(validateCsrUpdate(both, denied, domain, { allowSettingApprovalConditions: true })), [
      'status.conditions[1].type: Invalid value: "Approved": Approved and Denied conditions are mutually exclusive',
    ]);
  });

  it('keep Approved conditions through status writes and refuse certificate changes elsewhere', () => {
    const old = csr(valid().spec, {
      conditions: [{ type: 'Approved', status: 'True', reason: 'A', lastUpdateTime: 't', lastTransitionTime: 't' }],
    });
    const next = csr(valid().spec, {
      conditions: [
        { type: 'Approved', status: 'True', reason: 'changed' },
        { type: 'Failed', status: 'True' },
      ],
    });
    prepareCsrStatusUpdate(next, old, 'now');
    assert.deepEqual(next.status?.conditions, [
      { type: 'Approved', status: 'True', reason: 'A', lastUpdateTime: 't', lastTransitionTime: 't' },
      { type: 'Failed', status: 'True', lastUpdateTime: 'now', lastTransitionTime: 'now' },
    ]);
    const withCert = csr(valid().spec, { certificate: Buffer.from('not a cert').toString('base64') });
    assert.deepEqual(messages(validateCsrUpdate(withCert, valid(), domain)), [
      'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
      'status.certificate: Forbidden: updates may not set certificate content',
    ]);
  });
});

describe('CertificateSigningRequest columns and field labels', () => {
  it('show signer, requestor, duration and condition', () => {
    const o = csr(
      { signerName: 'example.com/s', username: 'alice', expirationSeconds: 3600 },
      { conditions: [{ type: 'Approved', status: 'True' }] },
    );
    const cols = csrTableColumns({});
    assert.deepEqual(
      cols.columnDefinitions.map((c) => c.name),
      ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition'],
    );
    assert.deepEqual(cols.cells(o, new Date()), ['c', '<unknown>', 'example.com/s', 'alice', '60m', 'Approved']);
    assert.deepEqual(cols.cells(csr({}), new Date()).slice(2), ['<none>', '', '<none>', 'Pending']);
  });
  const conditionCases: [CertificateSigningRequest['status'], string][] = [
    [{}, 'Pending'],
    [{ conditions: [{ type: 'Denied' }, { type: 'Approved' }] }, 'Denied'],
    [{ conditions: [{ type: 'Approved' }, { type: 'Failed' }], certificate: 'eA==' }, 'Approved,Failed,Issued'],
  ];
  for (const [status, want] of conditionCases)
    it(`condition ${want}`, () => assert.equal(csrCondition(csr({}, status)), want));

  it('select by signer name', () => {
    assert.deepEqual(csrFieldLabels.fieldSet(csr({ signerName: 'a.io/b' })), {
      'metadata.name': 'c',
      'spec.signerName': 'a.io/b',
    });
    assert.ok(!csrFieldLabels.supported.includes('metadata.namespace'));
  });
});
