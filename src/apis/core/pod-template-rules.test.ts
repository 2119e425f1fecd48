import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../meta/status.js';
import { POD_TEMPLATE_RULES } from './pod-template-rules.js';

describe('POD_TEMPLATE_RULES', () => {
  it('defaults a template as kube does, quantities canonical, requests not copied from limits', () => {
    const template: Record<string, unknown> = {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27', resources: { limits: { memory: '1024Mi' } } }] },
    };
    POD_TEMPLATE_RULES.defaultTemplate(template);
    assert.deepEqual(template.spec, {
      containers: [
        {
          name: 'web',
          image: 'nginx:1.27',
          resources: { limits: { memory: '1Gi' } },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
      // enableServiceLinks, like requests from limits, is a pod default (SetDefaults_Pod).
    });
  });

  it('refuses a malformed quantity with a 400', () => {
    const template = { spec: { containers: [{ name: 'web', image: 'x', resources: { requests: { cpu: 'lots' } } }] } };
    assert.throws(
      () => POD_TEMPLATE_RULES.defaultTemplate(template),
      (e) => e instanceof StatusError && e.code === 400 && /^quantities must match/.test(e.message),
    );
  });

  it('validates labels and the pod spec at the template path', () => {
    const template = { metadata: { labels: { 'bad key!': 'x' } }, spec: { containers: [{ name: 'web' }] } };
    POD_TEMPLATE_RULES.defaultTemplate(template);
    const errs = POD_TEMPLATE_RULES.validateTemplate(template, 'spec.template');
    assert.deepEqual(
      errs.map((e) => e.field),
      ['spec.template.labels', 'spec.template.spec.containers[0].image'],
    );
  });
});
