/**
 * What every workload of every overlay must have: probes on the health endpoints, resource requests
 * and limits, a non-root read-only security context, a Service, a PodDisruptionBudget, and the right
 * autoscaler (CPU HPA for HTTP apps; KEDA for queue workers, on the BullMQ wait lists or, for
 * alerts-dispatcher, the count of due deliveries).
 */
import { ALERTS_POLL_QUEUE, EXCHANGE_MAINTENANCE_QUEUE, SESSION_KEYS_QUEUE } from '@paper/contracts';
import { byKind, type K8sObject, label, named, renderKustomization, SERVER_APPS, WORKER_APPS } from './manifests';

/**
 * The BullMQ queues whose wait lists scale each worker, from the queue contracts. The intents and the
 * deliveries are read from PostgreSQL (their queues only wake the workers): those scale on row counts.
 */
const WORKER_QUEUES: Record<(typeof WORKER_APPS)[number], string[]> = {
  'trading-executor': [EXCHANGE_MAINTENANCE_QUEUE.queue, SESSION_KEYS_QUEUE.queue],
  'alerts-poller': [ALERTS_POLL_QUEUE.queue],
  'alerts-dispatcher': [],
};

/** Kubernetes quantity -> number (cores or bytes). */
function quantity(value: string | number): number {
  const text = String(value);
  const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|k|M|G)?$/.exec(text);
  if (!match) throw new Error(`unsupported quantity ${text}`);
  const factors: Record<string, number> = { m: 1e-3, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, k: 1e3, M: 1e6, G: 1e9 };
  return Number(match[1]) * (match[2] ? (factors[match[2]] as number) : 1);
}

function workloads(objects: readonly K8sObject[]): K8sObject[] {
  return objects.filter((o) => ['Deployment', 'StatefulSet', 'Job'].includes(o.kind));
}

const apps = (objects: readonly K8sObject[]): K8sObject[] =>
  byKind(objects, 'Deployment').filter((d) =>
    ['server', 'worker'].includes(label(d, 'app.kubernetes.io/component') ?? ''),
  );

describe.each(['dev', 'prod'] as const)('workloads of k8s/overlays/%s', (overlay) => {
  let objects: K8sObject[];

  beforeAll(() => {
    objects = renderKustomization(`k8s/overlays/${overlay}`);
  });

  it('probes every app: startup and liveness on /livez, readiness on /readyz, all on the http port', () => {
    for (const deployment of apps(objects)) {
      const [container] = deployment.spec.template.spec.containers;
      const probes = ['startupProbe', 'livenessProbe', 'readinessProbe'].map((p) => [
        p,
        container[p]?.httpGet?.path,
        container[p]?.httpGet?.port,
      ]);
      expect({ app: deployment.metadata.name, probes }).toEqual({
        app: deployment.metadata.name,
        probes: [
          ['startupProbe', '/livez', 'http'],
          ['livenessProbe', '/livez', 'http'],
          ['readinessProbe', '/readyz', 'http'],
        ],
      });
    }
  });

  it('probes the in-cluster datastores too', () => {
    for (const workload of workloads(objects).filter((w) => label(w, 'app.kubernetes.io/component') === 'datastore')) {
      const [container] = workload.spec.template.spec.containers;
      expect([container.startupProbe, container.livenessProbe, container.readinessProbe].every(Boolean)).toBe(true);
    }
  });

  it('sets cpu and memory requests and limits on every container, requests within limits', () => {
    for (const workload of workloads(objects)) {
      for (const container of workload.spec.template.spec.containers) {
        const r = container.resources ?? {};
        const who = `${workload.kind}/${workload.metadata.name}`;
        for (const resource of ['cpu', 'memory']) {
          expect({ who, resource, set: Boolean(r.requests?.[resource] && r.limits?.[resource]) }).toEqual({
            who,
            resource,
            set: true,
          });
          expect(quantity(r.requests[resource])).toBeLessThanOrEqual(quantity(r.limits[resource]));
        }
      }
    }
  });

  it('runs every pod as non-root with a read-only root filesystem, no privilege escalation and no capabilities', () => {
    for (const workload of workloads(objects)) {
      const pod = workload.spec.template.spec;
      const who = `${workload.kind}/${workload.metadata.name}`;
      expect({ who, ...pod.securityContext }).toEqual(
        expect.objectContaining({
          who,
          runAsNonRoot: true,
          runAsUser: expect.any(Number),
          seccompProfile: { type: 'RuntimeDefault' },
        }),
      );
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      expect({ who, automount: pod.automountServiceAccountToken }).toEqual({ who, automount: false });
      for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) {
        expect({ who, ...container.securityContext }).toEqual({
          who,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          privileged: false,
          capabilities: { drop: ['ALL'] },
        });
      }
    }
  });

  it('listens on PORT=8080 behind a Service whose http port targets it', () => {
    for (const deployment of apps(objects)) {
      const name = deployment.metadata.name;
      const [container] = deployment.spec.template.spec.containers;
      expect(container.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
      expect(container.env.find((e: { name: string }) => e.name === 'PORT')?.value).toBe('8080');
      const service = named(objects, 'Service', name);
      expect(service.spec.selector).toEqual({ 'app.kubernetes.io/name': name });
      expect(service.spec.ports).toEqual([expect.objectContaining({ name: 'http', port: 80, targetPort: 'http' })]);
      expect(deployment.spec.template.metadata.labels['app.kubernetes.io/name']).toBe(name);
    }
  });

  it('limits voluntary disruptions of every app with a PodDisruptionBudget', () => {
    for (const deployment of apps(objects)) {
      const pdb = named(objects, 'PodDisruptionBudget', deployment.metadata.name);
      expect(pdb.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
      expect(pdb.spec.maxUnavailable).toBe(1);
    }
  });

  it('autoscales every HTTP app on CPU with an HPA that owns its replica count', () => {
    const hpas = byKind(objects, 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.metadata.name).sort()).toEqual([...SERVER_APPS].sort());
    for (const app of SERVER_APPS) {
      const hpa = named(objects, 'HorizontalPodAutoscaler', app);
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: app });
      expect(hpa.spec.metrics).toEqual([
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
      ]);
      expect(hpa.spec.minReplicas).toBe(overlay === 'prod' ? 2 : 1);
      expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
      expect(named(objects, 'Deployment', app).spec.replicas).toBeUndefined();
    }
  });

  it('autoscales every queue worker with KEDA on the wait lists of its BullMQ queues, on its PostgreSQL backlog (queued intents, due deliveries), and on CPU', () => {
    const prefix = byKind(objects, 'ConfigMap')[0]?.data?.['REDIS_PREFIX'];
    expect(prefix).toBe('paper');
    expect(
      byKind(objects, 'ScaledObject')
        .map((s) => s.metadata.name)
        .sort(),
    ).toEqual([...WORKER_APPS].sort());
    for (const app of WORKER_APPS) {
      const scaled = named(objects, 'ScaledObject', app);
      expect(scaled.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: app });
      expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      const redis = scaled.spec.triggers.filter((t: { type: string }) => t.type === 'redis');
      expect(redis.map((t: { metadata: { listName: string } }) => t.metadata.listName).sort()).toEqual(
        WORKER_QUEUES[app].map((queue) => `${prefix}:bull:${queue}:wait`).sort(),
      );
      for (const trigger of redis) {
        expect(Number(trigger.metadata.listLength)).toBeGreaterThan(0);
        expect(
          named(objects, 'TriggerAuthentication', trigger.authenticationRef.name).spec.secretTargetRef.map(
            (r: { parameter: string }) => r.parameter,
          ),
        ).toEqual(['address', 'password']);
      }
      expect(scaled.spec.triggers).toContainEqual({
        type: 'cpu',
        name: 'cpu',
        metricType: 'Utilization',
        metadata: { value: '70' },
      });
      expect(named(objects, 'Deployment', app).spec.replicas).toBeUndefined();
    }
    const backlogs: [string, RegExp][] = [
      ['alerts-dispatcher', /FROM alerts\.deliveries WHERE status IN \('queued', 'failed'\)/],
      ['trading-executor', /FROM exchange\.intents WHERE status = 'queued'/],
    ];
    for (const [app, query] of backlogs) {
      const due = named(objects, 'ScaledObject', app).spec.triggers.filter(
        (t: { type: string }) => t.type === 'postgresql',
      );
      expect(due).toHaveLength(1);
      expect(due[0].metadata.query).toMatch(query);
      expect(Number(due[0].metadata.targetQueryValue)).toBeGreaterThan(0);
      expect(
        named(objects, 'TriggerAuthentication', due[0].authenticationRef.name).spec.secretTargetRef.map(
          (r: { parameter: string; key: string }) => [r.parameter, r.key],
        ),
      ).toEqual([['connection', 'KEDA_DATABASE_URL']]);
    }
  });

  it('drains connections before stopping: a preStop pause shorter than the grace period', () => {
    for (const deployment of apps(objects).filter((d) => d.metadata.name !== 'venue-sim')) {
      const pod = deployment.spec.template.spec;
      expect(pod.containers[0].lifecycle.preStop.sleep.seconds).toBeLessThan(pod.terminationGracePeriodSeconds);
    }
  });
});

describe('quantity', () => {
  it('parses cpu and memory quantities', () => {
    expect([quantity('250m'), quantity('1'), quantity('256Mi'), quantity('1Gi')]).toEqual([
      0.25, 1, 268435456, 1073741824,
    ]);
    expect(() => quantity('1Ti')).toThrow('unsupported quantity 1Ti');
  });
});
