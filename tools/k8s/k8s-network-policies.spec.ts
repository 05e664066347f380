/**
 * The NetworkPolicy set, evaluated as a whole: default deny, then each app reaches exactly what it
 * needs (the matrix below) and is reached only by its callers, the Ingress controller (public apps)
 * and Prometheus.
 */
import { type K8sObject, PRODUCTION_APPS, renderKustomization } from './manifests';
import { inCidr, NetworkPolicyModel, type Pod, podsOf } from './network-policy-model';

/** Calls between apps of the namespace (all on port 8080), in both overlays. */
const APP_CALLS = [
  ['tools-gateway', 'oauth-server'],
  ['mcp-server', 'oauth-server'],
  ['oauth-server', 'trading-executor'],
  ['alerts-api', 'tools-gateway'],
  ['alerts-poller', 'tools-gateway'],
];
const DEV_CALLS = [
  ['trading-executor', 'venue-sim'],
  ['tools-gateway', 'venue-sim'],
  ['mcp-server', 'venue-sim'],
];
const PUBLIC_APPS = ['tools-gateway', 'mcp-server', 'oauth-server', 'alerts-api'];
const INTERNET_APPS = ['trading-executor', 'tools-gateway', 'mcp-server', 'alerts-api', 'alerts-dispatcher'];
const MIGRATIONS = ['migrate-exchange', 'migrate-oauth', 'migrate-alerts'];
const PUBLIC_IP = '198.51.100.7';

describe.each(['dev', 'prod'] as const)('NetworkPolicies of k8s/overlays/%s', (overlay) => {
  let objects: K8sObject[];
  let model: NetworkPolicyModel;
  let pods: Pod[];
  const pod = (name: string): Pod => {
    const found = pods.find((p) => p.name === name);
    if (!found) throw new Error(`no pod ${name}`);
    return found;
  };
  const appNames = (): string[] =>
    pods.filter((p) => ['server', 'worker'].includes(p.labels['app.kubernetes.io/component'] ?? '')).map((p) => p.name);

  beforeAll(() => {
    objects = renderKustomization(`k8s/overlays/${overlay}`);
    model = new NetworkPolicyModel(objects);
    pods = podsOf(objects);
  });

  it('denies everything by default, in both directions, for every pod', () => {
    const deny = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'default-deny');
    expect(deny?.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    for (const p of pods) expect(model.ingressAllowed(p, { namespace: 'default' }, 8080)).toBe(false);
  });

  it('lets each app call exactly the apps it needs', () => {
    const expected = [...APP_CALLS, ...(overlay === 'dev' ? DEV_CALLS : [])].map(([a, b]) => `${a} -> ${b}`).sort();
    const allowed = appNames()
      .flatMap((a) =>
        appNames()
          .filter((b) => a !== b && model.connects(pod(a), pod(b), 8080))
          .map((b) => `${a} -> ${b}`),
      )
      .sort();
    expect(allowed).toEqual(expected);
  });

  it('admits the Ingress controller to the public apps only, and Prometheus to every app', () => {
    const fromController = appNames().filter((a) => model.ingressAllowed(pod(a), { namespace: 'traefik' }, 8080));
    expect(fromController.sort()).toEqual([...PUBLIC_APPS].sort());
    for (const app of appNames())
      expect({ app, scraped: model.ingressAllowed(pod(app), { namespace: 'monitoring' }, 8080) }).toEqual({
        app,
        scraped: true,
      });
  });

  it('lets only the venue clients and notification senders out to the internet (HTTPS; any port for webhooks), never to private ranges', () => {
    const out = appNames().filter((a) => model.egressAllowed(pod(a), { ip: PUBLIC_IP }, 443));
    expect(out.sort()).toEqual([...INTERNET_APPS].sort());
    for (const app of appNames()) {
      // customer webhooks may use any port: only their senders (deliveries, test messages) reach beyond 443
      const webhookSender = app === 'alerts-dispatcher' || app === 'alerts-api';
      expect(model.egressAllowed(pod(app), { ip: PUBLIC_IP }, 8443)).toBe(webhookSender);
      expect(model.egressAllowed(pod(app), { ip: PUBLIC_IP }, 80)).toBe(webhookSender);
      expect(model.egressAllowed(pod(app), { ip: '10.20.30.40' }, 443)).toBe(false);
      expect(model.egressAllowed(pod(app), { namespace: 'kube-system' }, 443)).toBe(false);
    }
  });

  it('lets the apps reach PostgreSQL and Redis and the migrations PostgreSQL only, wherever they run', () => {
    const managed = '203.0.113.10';
    for (const app of PRODUCTION_APPS) {
      expect([
        model.egressAllowed(pod(app), { ip: managed }, 5432),
        model.egressAllowed(pod(app), { ip: managed }, 6379),
      ]).toEqual([true, true]);
    }
    for (const job of MIGRATIONS) {
      expect([
        model.egressAllowed(pod(job), { ip: managed }, 5432),
        model.egressAllowed(pod(job), { ip: managed }, 6379),
      ]).toEqual([true, false]);
    }
    if (overlay === 'dev') {
      expect(model.egressAllowed(pod('venue-sim'), { ip: managed }, 5432)).toBe(false);
      const postgresClients = pods.filter((p) => model.connects(p, pod('postgres'), 5432)).map((p) => p.name);
      expect(postgresClients.sort()).toEqual([...PRODUCTION_APPS, ...MIGRATIONS].sort());
      const redisClients = pods.filter((p) => model.connects(p, pod('redis'), 6379)).map((p) => p.name);
      expect(redisClients.sort()).toEqual([...PRODUCTION_APPS].sort());
      expect(model.ingressAllowed(pod('redis'), { namespace: 'keda' }, 6379)).toBe(true);
      expect(model.ingressAllowed(pod('postgres'), { namespace: 'keda' }, 5432)).toBe(true);
      for (const store of ['postgres', 'redis']) {
        expect(pods.filter((p) => model.connects(pod(store), p, 8080))).toEqual([]);
      }
    }
  });

  it('lets every pod resolve names through cluster DNS', () => {
    for (const p of pods)
      expect({ pod: p.name, dns: model.egressAllowed(p, { namespace: 'kube-system' }, 53) }).toEqual({
        pod: p.name,
        dns: true,
      });
  });
});

describe('inCidr', () => {
  it('tests IPv4 membership', () => {
    expect([
      inCidr('10.1.2.3', '10.0.0.0/8'),
      inCidr('11.0.0.1', '10.0.0.0/8'),
      inCidr('1.2.3.4', '0.0.0.0/0'),
      inCidr('1.2.3.4', '::/0'),
    ]).toEqual([true, false, true, false]);
  });
});
