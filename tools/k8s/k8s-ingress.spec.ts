/**
 * The Ingress of the public host routes exactly PUBLIC_ROUTES (architecture.md's one base URL) to the
 * right Services; the alerts host routes only alerts-api's public endpoints.
 */
import { ALERTS_ROUTES, PUBLIC_ROUTES } from '@paper/contracts';
import { type K8sObject, named, renderKustomization } from './manifests';

interface Rule {
  path: string;
  pathType: string;
  service: string;
  port: string;
}

function rulesOf(ingress: K8sObject): Rule[] {
  expect(ingress.spec.rules).toHaveLength(1);
  return ingress.spec.rules[0].http.paths.map(
    (p: { path: string; pathType: string; backend: { service: { name: string; port: { name: string } } } }) => ({
      path: p.path,
      pathType: p.pathType,
      service: p.backend.service.name,
      port: p.backend.service.port.name,
    }),
  );
}

const byPath = (a: Rule, b: Rule): number => a.path.localeCompare(b.path);

const asRules = (routes: readonly { path: string; prefix: boolean; app: string }[]): Rule[] =>
  routes.map((r) => ({ path: r.path, pathType: r.prefix ? 'Prefix' : 'Exact', service: r.app, port: 'http' }));

describe.each(['dev', 'prod'] as const)('Ingresses of k8s/overlays/%s', (overlay) => {
  let objects: K8sObject[];

  beforeAll(() => {
    objects = renderKustomization(`k8s/overlays/${overlay}`);
  });

  it('routes the public host exactly as PUBLIC_ROUTES says: Exact for exact routes, Prefix for prefixes', () => {
    expect(rulesOf(named(objects, 'Ingress', 'public')).sort(byPath)).toEqual(asRules(PUBLIC_ROUTES).sort(byPath));
  });

  it('routes the alerts host exactly as ALERTS_ROUTES says, keeping probes and metrics internal', () => {
    const rules = rulesOf(named(objects, 'Ingress', 'alerts'));
    expect(rules.sort(byPath)).toEqual(asRules(ALERTS_ROUTES).sort(byPath));
  });

  it('never routes the internal endpoints on either host', () => {
    for (const name of ['public', 'alerts']) {
      const paths = rulesOf(named(objects, 'Ingress', name)).map((r) => r.path);
      for (const internal of ['/', '/livez', '/readyz', '/metrics']) expect(paths).not.toContain(internal);
    }
  });

  it('sends every backend to an existing Service with an http port', () => {
    for (const name of ['public', 'alerts']) {
      for (const rule of rulesOf(named(objects, 'Ingress', name))) {
        const service = named(objects, 'Service', rule.service);
        expect(service.spec.ports.map((p: { name: string }) => p.name)).toContain(rule.port);
      }
    }
  });

  it('uses one Ingress class on separate hosts', () => {
    const pub = named(objects, 'Ingress', 'public');
    const alerts = named(objects, 'Ingress', 'alerts');
    expect(pub.spec.ingressClassName).toBe(alerts.spec.ingressClassName);
    expect(pub.spec.rules[0].host).not.toBe(alerts.spec.rules[0].host);
  });
});
