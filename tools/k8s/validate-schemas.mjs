// Validates Kubernetes objects against their OpenAPI schemas (kubernetes-models and its KEDA and
// Prometheus Operator CRD packages). Reads a JSON array of objects on stdin, prints a JSON array of
// { ref, error } (error null when valid). A kind without a known schema is an error, never a pass.
// ESM because the model packages are ESM-only; tools/k8s/manifests.ts runs it as a child process.
import { readFileSync } from 'node:fs';

const CRD_PACKAGES = {
  'keda.sh': '@kubernetes-models/keda',
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
};

function modelPath(apiVersion, kind) {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return `kubernetes-models/${apiVersion}/${kind}`;
  const group = apiVersion.slice(0, slash);
  const pkg = CRD_PACKAGES[group] ?? 'kubernetes-models';
  return `${pkg}/${apiVersion}/${kind}`;
}

// Kustomize wraps long base64 values over several lines; the API server's decoder ignores line breaks,
// the schema's "byte" format does not, so Secret data is compared without them.
function normalise(object) {
  if (object.kind !== 'Secret' || !object.data) return object;
  const data = Object.fromEntries(Object.entries(object.data).map(([k, v]) => [k, String(v).replace(/\s+/g, '')]));
  return { ...object, data };
}

async function validateOne(object) {
  const ref = `${object.kind}/${object.metadata?.name} (${object.apiVersion})`;
  let Model;
  try {
    Model = (await import(modelPath(String(object.apiVersion), String(object.kind))))[object.kind];
  } catch {
    return { ref, error: `no schema known for ${object.apiVersion} ${object.kind}` };
  }
  if (typeof Model !== 'function') return { ref, error: `no schema known for ${object.apiVersion} ${object.kind}` };
  try {
    new Model(normalise(object)).validate();
    return { ref, error: null };
  } catch (error) {
    return { ref, error: error instanceof Error ? error.message : String(error) };
  }
}

const objects = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const object of objects) results.push(await validateOne(object));
process.stdout.write(JSON.stringify(results));
