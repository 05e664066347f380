/**
 * tools/k8s/deploy.sh against a recording stand-in for kubectl (the real one renders; nothing reaches a
 * cluster): the phases run in order, every rendered object is applied exactly once, migrations run one
 * schema at a time to completion, and a failed migration stops the deploy before any app is applied.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findKubectl, type K8sObject, renderKustomization, ROOT } from './manifests';

const FAKE_KUBECTL = `#!/usr/bin/env bash
echo "$*" >> "$FAKE_LOG"
if [ "$1" = kustomize ]; then exec "$REAL_KUBECTL" "$@"; fi
verb="" prev="" job=""
for arg in "$@"; do
  case "$arg" in get|logs|apply|delete|rollout) [ -z "$verb" ] && verb="$arg" ;; esac
  [ "$prev" = job ] && job="$arg"
  prev="$arg"
done
case "$verb" in
  get) if [ "$job" = "$FAKE_FAILING_JOB" ]; then echo "/True"; else echo "1/"; fi ;;
  logs) echo "migration failed: relation already exists" ;;
esac
`;

interface Run {
  status: number | null;
  calls: string[];
  output: string;
}

function runDeploy(overlay: string, failingJob = ''): Run {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-spec-'));
  try {
    const fake = path.join(dir, 'kubectl');
    fs.writeFileSync(fake, FAKE_KUBECTL, { mode: 0o755 });
    const log = path.join(dir, 'calls.log');
    const result = spawnSync('bash', [path.join(ROOT, 'tools/k8s/deploy.sh'), overlay], {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        ...process.env,
        KUBECTL: fake,
        REAL_KUBECTL: findKubectl(),
        FAKE_LOG: log,
        FAKE_FAILING_JOB: failingJob,
        TIMEOUT: '5',
      },
    });
    const calls = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [];
    return { status: result.status, calls, output: `${result.stdout}${result.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Evaluates the equality selectors deploy.sh uses (`k=v`, `k!=v`, comma = and) on an object's labels. */
function selects(selector: string, object: K8sObject): boolean {
  const labels = object.metadata.labels ?? {};
  return selector.split(',').every((term) => {
    const negated = term.includes('!=');
    const [key, value] = term.split(negated ? '!=' : '=') as [string, string];
    return negated ? labels[key] !== value : labels[key] === value;
  });
}

const selectorOf = (call: string): string => call.slice(call.indexOf(' -l ') + 4);

describe.each(['dev', 'prod'] as const)('tools/k8s/deploy.sh k8s/overlays/%s', (overlay) => {
  let run: Run;
  let objects: K8sObject[];

  beforeAll(() => {
    run = runDeploy(`k8s/overlays/${overlay}`);
    objects = renderKustomization(`k8s/overlays/${overlay}`);
  });

  it('succeeds and runs platform, migrations one schema at a time, then apps', () => {
    expect(run.status).toBe(0);
    const steps = run.calls.map((c) =>
      c
        .replace(/-f \S+ /, '')
        .replace(/ --timeout=\S+/, '')
        .replace(/^kustomize .*/, 'kustomize'),
    );
    expect(steps).toEqual([
      'kustomize',
      'apply -l app.kubernetes.io/component!=server,app.kubernetes.io/component!=worker,app.kubernetes.io/component!=migration',
      ...(overlay === 'dev'
        ? [
            '-n paper rollout status statefulset -l app.kubernetes.io/component=datastore',
            '-n paper rollout status deployment -l app.kubernetes.io/component=datastore',
          ]
        : []),
      '-n paper delete job -l app.kubernetes.io/component=migration --ignore-not-found --wait=true',
      ...['exchange', 'oauth', 'alerts'].flatMap((schema) => [
        `apply -l app.kubernetes.io/name=migrate-${schema}`,
        `-n paper get job migrate-${schema} -o jsonpath={.status.succeeded}/{.status.conditions[?(@.type=="Failed")].status}`,
      ]),
      'apply -l app.kubernetes.io/component=server',
      'apply -l app.kubernetes.io/component=worker',
      '-n paper rollout status deployment -l app.kubernetes.io/component!=datastore',
    ]);
  });

  it('applies every rendered object exactly once across its apply steps', () => {
    const selectors = run.calls.filter((c) => c.startsWith('apply ')).map(selectorOf);
    const counts = objects.map((o) => ({
      object: `${o.kind}/${o.metadata.name}`,
      applied: selectors.filter((s) => selects(s, o)).length,
    }));
    expect(counts.filter((c) => c.applied !== 1)).toEqual([]);
  });

  it('applies the migration Jobs before any app Deployment', () => {
    const applies = run.calls.filter((c) => c.startsWith('apply ')).map(selectorOf);
    const phaseOf = (o: K8sObject): number => applies.findIndex((s) => selects(s, o));
    const lastJob = Math.max(...objects.filter((o) => o.kind === 'Job').map(phaseOf));
    const firstApp = Math.min(
      ...objects
        .filter((o) => o.kind === 'Deployment' && o.metadata.labels?.['app.kubernetes.io/component'] !== 'datastore')
        .map(phaseOf),
    );
    expect(lastJob).toBeLessThan(firstApp);
  });
});

describe('tools/k8s/deploy.sh with a failing migration', () => {
  it('stops after the failed Job, shows its log and applies no app', () => {
    const run = runDeploy('k8s/overlays/prod', 'migrate-oauth');
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('migrate-oauth FAILED');
    expect(run.output).toContain('migration failed: relation already exists');
    expect(run.calls.some((c) => c.includes('migrate-alerts'))).toBe(false);
    expect(run.calls.some((c) => c.includes('component=server') || c.includes('component=worker'))).toBe(false);
  });

  it('refuses to run without an overlay argument', () => {
    expect(() => execFileSync('bash', [path.join(ROOT, 'tools/k8s/deploy.sh')], { stdio: 'pipe' })).toThrow(
      /usage: deploy.sh/,
    );
  });
});
