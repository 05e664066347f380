/**
 * Rendering and schema validation of the Kustomize overlays under k8s/, for the manifest tests:
 * `kubectl kustomize <dir>` (kubectl from PATH, /usr/bin or .cache/kubectl, see install-kubectl.sh),
 * YAML parsing, and validation of every object against the Kubernetes (and KEDA / Prometheus
 * Operator CRD) schemas in a child process (the model packages are ESM-only).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';

export const ROOT = path.resolve(__dirname, '..', '..');

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // The manifests are checked field by field in the specs; their shapes are the Kubernetes API's.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  data?: Record<string, string>;
}

const KUBECTL_CANDIDATES = [
  '/usr/bin/kubectl',
  '/usr/local/bin/kubectl',
  path.join(ROOT, '.cache', 'kubectl', 'kubectl'),
];

/** The kubectl binary to render with; throws an actionable message when there is none. */
export function findKubectl(
  env: NodeJS.ProcessEnv = process.env,
  candidates: readonly string[] = KUBECTL_CANDIDATES,
): string {
  const fromEnv = env['KUBECTL'];
  if (fromEnv && fs.existsSync(fromEnv)) return fromEnv;
  const onPath = (env['PATH'] ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, 'kubectl'));
  const found = [...onPath, ...candidates].find((candidate) => fs.existsSync(candidate));
  if (!found) {
    throw new Error(
      'kubectl not found: the manifest tests render k8s/ with `kubectl kustomize`. Install it with ' +
        "`bash tools/k8s/install-kubectl.sh` (what .ci/run does) or your distribution's kubectl package " +
        '(apt-get install kubectl where available), or set KUBECTL=/path/to/kubectl.',
    );
  }
  return found;
}

/** `kubectl kustomize <dir>` parsed into objects (dir relative to the repository root). */
export function renderKustomization(dir: string): K8sObject[] {
  const yamlText = execFileSync(findKubectl(), ['kustomize', path.join(ROOT, dir)], {
    encoding: 'utf8',
    maxBuffer: 32 * 1024 * 1024,
  });
  return parseAllDocuments(yamlText)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${dir}: invalid YAML: ${doc.errors[0]?.message}`);
      return doc.toJSON() as K8sObject | null;
    })
    .filter((object): object is K8sObject => object !== null);
}

export interface SchemaResult {
  ref: string;
  error: string | null;
}

/** Validates every object against its schema; a kind with no known schema is reported as an error. */
export function validateSchemas(objects: readonly K8sObject[]): SchemaResult[] {
  const output = execFileSync(process.execPath, [path.join(__dirname, 'validate-schemas.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
    cwd: ROOT,
    maxBuffer: 32 * 1024 * 1024,
  });
  return JSON.parse(output) as SchemaResult[];
}

export const byKind = (objects: readonly K8sObject[], kind: string): K8sObject[] =>
  objects.filter((o) => o.kind === kind);

export function named(objects: readonly K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} named ${name} in the rendered manifests`);
  return found;
}

export const label = (object: K8sObject, key: string): string | undefined => object.metadata.labels?.[key];

/** The apps of the monorepo as deployed: HTTP servers scale on CPU, queue workers on queue depth. */
export const SERVER_APPS = ['tools-gateway', 'mcp-server', 'oauth-server', 'alerts-api'] as const;
export const WORKER_APPS = ['trading-executor', 'alerts-poller', 'alerts-dispatcher'] as const;
export const PRODUCTION_APPS = [...SERVER_APPS, ...WORKER_APPS] as const;
/** Development only: the simulated venue. */
export const DEV_ONLY_APPS = ['venue-sim'] as const;
