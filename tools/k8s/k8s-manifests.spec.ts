/**
 * Renders every Kustomize overlay with `kubectl kustomize`, validates each object against the
 * Kubernetes / KEDA / Prometheus Operator schemas, and checks what the overlays must contain:
 * the apps, the migration Jobs, pinned images, consistent URLs and no committed secrets.
 */
import { baseEnvShape } from '@paper/nest-infra';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  byKind,
  DEV_ONLY_APPS,
  findKubectl,
  type K8sObject,
  label,
  named,
  PRODUCTION_APPS,
  renderKustomization,
  ROOT,
  validateSchemas,
} from './manifests';

const OVERLAYS = ['dev', 'prod'] as const;
const MIGRATIONS: Record<string, string> = {
  exchange: 'trading-executor',
  oauth: 'oauth-server',
  alerts: 'alerts-api',
};

function podSpecs(objects: readonly K8sObject[]): { owner: string; pod: K8sObject['spec'] }[] {
  return objects
    .filter((o) => ['Deployment', 'StatefulSet', 'Job'].includes(o.kind))
    .map((o) => ({ owner: `${o.kind}/${o.metadata.name}`, pod: o.spec.template.spec }));
}

const configOf = (objects: readonly K8sObject[]): Record<string, string> => {
  const maps = byKind(objects, 'ConfigMap').filter((c) => c.metadata.name.startsWith('paper-config'));
  expect(maps).toHaveLength(1);
  return maps[0]?.data ?? {};
};

describe.each(OVERLAYS)('k8s/overlays/%s', (overlay) => {
  let objects: K8sObject[];

  beforeAll(() => {
    objects = renderKustomization(`k8s/overlays/${overlay}`);
  });

  it('renders objects that all validate against their schemas', () => {
    const results = validateSchemas(objects);
    expect(results).toHaveLength(objects.length);
    expect(results.filter((r) => r.error !== null)).toEqual([]);
    expect(objects.length).toBeGreaterThan(40);
  });

  it('puts every namespaced object into the paper namespace, which enforces the restricted pod security profile', () => {
    const namespace = named(objects, 'Namespace', 'paper');
    expect(label(namespace, 'pod-security.kubernetes.io/enforce')).toBe('restricted');
    const stray = objects.filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== 'paper');
    expect(stray.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([]);
  });

  it('deploys every app of the system, and venue-sim only in development', () => {
    const apps = byKind(objects, 'Deployment')
      .filter((d) => ['server', 'worker'].includes(label(d, 'app.kubernetes.io/component') ?? ''))
      .map((d) => d.metadata.name)
      .sort();
    const expected = overlay === 'dev' ? [...PRODUCTION_APPS, ...DEV_ONLY_APPS] : [...PRODUCTION_APPS];
    expect(apps).toEqual([...expected].sort());
  });

  it('runs PostgreSQL and Redis in the cluster only in development', () => {
    const datastores = objects.filter(
      (o) => label(o, 'app.kubernetes.io/component') === 'datastore' && o.kind !== 'NetworkPolicy',
    );
    const names = datastores.map((o) => `${o.kind}/${o.metadata.name}`).sort();
    expect(names).toEqual(
      overlay === 'dev' ? ['Deployment/redis', 'Service/postgres', 'Service/redis', 'StatefulSet/postgres'] : [],
    );
  });

  it('migrates each schema with a Job running the migration command from the image of the owning app', () => {
    const jobs = byKind(objects, 'Job');
    expect(jobs.map((j) => j.metadata.name).sort()).toEqual(['migrate-alerts', 'migrate-exchange', 'migrate-oauth']);
    for (const [schema, app] of Object.entries(MIGRATIONS)) {
      const job = named(objects, 'Job', `migrate-${schema}`);
      expect(label(job, 'app.kubernetes.io/component')).toBe('migration');
      const pod = job.spec.template.spec;
      expect(pod.restartPolicy).toBe('Never');
      const [container] = pod.containers;
      expect([...container.command, ...container.args]).toEqual([
        'node',
        '--enable-source-maps',
        'tools/db/migrate.js',
        schema,
      ]);
      expect(container.image).toMatch(new RegExp(`(^|/)paper/${app}:`));
      expect(container.env.find((e: { name: string }) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef?.key).toBe(
        'DATABASE_URL',
      );
      expect(job.spec.backoffLimit).toBeGreaterThan(0);
      expect(job.spec.activeDeadlineSeconds).toBeGreaterThan(0);
    }
  });

  it('pins every image to an explicit tag (never latest), production images to a registry', () => {
    for (const { owner, pod } of podSpecs(objects)) {
      for (const container of pod.containers) {
        const image: string = container.image;
        const tag = image.slice(image.lastIndexOf('/') + 1).split(':')[1];
        expect({ owner, image, tagged: Boolean(tag) && tag !== 'latest' }).toEqual({ owner, image, tagged: true });
        if (overlay === 'prod') expect(image).toMatch(/^[a-z0-9.-]+\.[a-z]+(:\d+)?\/paper\/[a-z-]+:[\w.-]+$/);
      }
    }
  });

  it('names the Ingress controller’s pod range as the apps’ trusted proxies, in the form the apps accept', () => {
    const trusted = baseEnvShape.TRUSTED_PROXIES.safeParse(configOf(objects)['TRUSTED_PROXIES']);
    expect(trusted.success).toBe(true);
    expect(trusted.data).toEqual(['10.0.0.0/8']);
  });

  it('serves the URLs the apps are configured with: the Ingress hosts match PUBLIC_BASE_URL and ALERTS_BASE_URL', () => {
    const config = configOf(objects);
    const hosts = {
      public: named(objects, 'Ingress', 'public').spec.rules[0].host,
      alerts: named(objects, 'Ingress', 'alerts').spec.rules[0].host,
    };
    expect(new URL(config['PUBLIC_BASE_URL'] ?? '').hostname).toBe(hosts.public);
    expect(new URL(config['ALERTS_BASE_URL'] ?? '').hostname).toBe(hosts.alerts);
    if (overlay === 'prod') {
      expect(new URL(config['PUBLIC_BASE_URL'] ?? '').protocol).toBe('https:');
      expect(new URL(config['ALERTS_BASE_URL'] ?? '').protocol).toBe('https:');
      for (const name of ['public', 'alerts'] as const) {
        const tls = named(objects, 'Ingress', name).spec.tls;
        expect(tls?.[0]?.hosts).toEqual([hosts[name]]);
        expect(tls?.[0]?.secretName).toEqual(expect.any(String));
      }
      expect(config['UPSTREAM_URL']).toBe('https://api.hyperliquid.xyz');
      expect(config['NODE_ENV']).toBe('production');
    } else {
      expect(config['UPSTREAM_URL']).toBe('http://venue-sim');
    }
    for (const key of ['EXCHANGE_API_URL', 'OAUTH_INTERNAL_URL', 'EXECUTOR_INTERNAL_URL']) {
      const service = new URL(config[key] ?? '').hostname;
      expect({ key, service: byKind(objects, 'Service').some((s) => s.metadata.name === service) }).toEqual({
        key,
        service: true,
      });
    }
  });

  it('points every ConfigMap and Secret reference at paper-config and paper-secrets as the overlay provides them', () => {
    const configMaps = new Set(byKind(objects, 'ConfigMap').map((c) => c.metadata.name));
    const secretName = overlay === 'prod' ? 'paper-secrets' : byKind(objects, 'Secret')[0]?.metadata.name;
    for (const { owner, pod } of podSpecs(objects)) {
      for (const container of pod.containers) {
        for (const source of container.envFrom ?? []) {
          expect({ owner, configMap: configMaps.has(source.configMapRef?.name) }).toEqual({ owner, configMap: true });
        }
        for (const variable of container.env ?? []) {
          const ref = variable.valueFrom?.secretKeyRef;
          if (ref)
            expect({ owner, secret: ref.name, key: ref.key }).toEqual({
              owner,
              secret: secretName,
              key: variable.name,
            });
        }
      }
    }
    const auth = named(objects, 'TriggerAuthentication', 'paper-redis');
    expect(auth.spec.secretTargetRef.map((r: { name: string }) => r.name)).toEqual([secretName, secretName]);
    expect(
      named(objects, 'TriggerAuthentication', 'paper-postgres').spec.secretTargetRef.map(
        (r: { name: string }) => r.name,
      ),
    ).toEqual([secretName]);
  });
});

describe('kubectl', () => {
  it('explains how to install kubectl when there is none', () => {
    expect(() => findKubectl({ PATH: '/nonexistent' }, ['/nonexistent/kubectl'])).toThrow(
      /kubectl not found.*bash tools\/k8s\/install-kubectl\.sh/,
    );
  });
});

describe('schema validation', () => {
  it('reports invalid objects and kinds it has no schema for', () => {
    const results = validateSchemas([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'broken' },
        spec: { replicas: 'three', selector: {}, template: {} },
      },
      { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'unknown' } },
      {
        apiVersion: 'keda.sh/v1alpha1',
        kind: 'ScaledObject',
        metadata: { name: 'bad-trigger' },
        spec: { scaleTargetRef: { name: 'worker' }, triggers: [{ type: 'redis', metadata: { listLength: 5 } }] },
      },
    ]);
    expect(results.map((r) => r.error)).toEqual([
      expect.stringContaining('replicas must be integer'),
      'no schema known for example.com/v1 Widget',
      expect.stringContaining('listLength must be string'),
    ]);
  });
});

describe('secrets', () => {
  it('commits no Secret for production: paper-secrets is created by the operator', () => {
    expect(byKind(renderKustomization('k8s/overlays/prod'), 'Secret')).toEqual([]);
  });

  it('generates the development Secret only from secrets.example.env, whose sensitive values are all marked dev-only', () => {
    const secrets = byKind(renderKustomization('k8s/overlays/dev'), 'Secret');
    expect(secrets.map((s) => s.metadata.name)).toEqual([expect.stringMatching(/^paper-secrets-[a-z0-9]+$/)]);
    const file = fs.readFileSync(path.join(ROOT, 'k8s/overlays/dev/secrets.example.env'), 'utf8');
    const entries = file
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
    const decoded = Object.fromEntries(
      Object.entries(secrets[0]?.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
    );
    expect(decoded).toEqual(Object.fromEntries(entries));
    for (const [key, value] of entries) {
      if (/URL|PASSWORD|KEY|TOKEN|SECRET/.test(key))
        expect({ key, devOnly: value.includes('dev-only') }).toEqual({ key, devOnly: true });
    }
  });

  it('keeps secret material out of every committed manifest', () => {
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    const offenders = files(path.join(ROOT, 'k8s'))
      .filter((f) => /\.ya?ml$/.test(f))
      .filter(
        (f) =>
          /^kind:\s*Secret\s*$/m.test(fs.readFileSync(f, 'utf8')) ||
          /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(fs.readFileSync(f, 'utf8')),
      );
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
  });
});

describe('k8s/monitoring', () => {
  let objects: K8sObject[];

  beforeAll(() => {
    objects = renderKustomization('k8s/monitoring');
  });

  it('renders a PodMonitor and PrometheusRule that validate against the Prometheus Operator schemas', () => {
    expect(objects.map((o) => o.kind).sort()).toEqual(['PodMonitor', 'PrometheusRule']);
    expect(validateSchemas(objects).filter((r) => r.error !== null)).toEqual([]);
  });

  it('scrapes /metrics on the http port of servers and workers', () => {
    const monitor = named(objects, 'PodMonitor', 'paper-apps');
    expect(monitor.spec.podMetricsEndpoints).toEqual([expect.objectContaining({ port: 'http', path: '/metrics' })]);
    expect(monitor.spec.selector.matchExpressions[0].values).toEqual(['server', 'worker']);
  });

  it('gives every alert an expression scoped to the paper namespace, a severity and a summary, each documented', () => {
    const operations = fs.readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
    const rules = named(objects, 'PrometheusRule', 'paper-alerts').spec.groups.flatMap(
      (g: { rules: unknown[] }) => g.rules,
    );
    expect(rules.length).toBeGreaterThanOrEqual(8);
    for (const rule of rules) {
      expect(rule.expr).toContain('namespace="paper"');
      expect(['page', 'ticket']).toContain(rule.labels.severity);
      expect(rule.annotations.summary).toEqual(expect.any(String));
      expect({ alert: rule.alert, documented: operations.includes(rule.alert) }).toEqual({
        alert: rule.alert,
        documented: true,
      });
    }
  });
});
