#!/usr/bin/env bash
# Deploys one overlay in the order the system needs:
#   1. platform: namespace, ConfigMap, (dev) generated Secret, NetworkPolicies, Ingresses, KEDA
#      TriggerAuthentication and, in development, PostgreSQL and Redis (waited for);
#   2. migrations: the Jobs of the exchange, oauth and alerts schemas, one at a time, each to
#      completion (a failed migration stops the deploy before any app changes);
#   3. apps: servers and workers with their Services, PDBs, autoscalers and policies, then waits for
#      every rollout.
# usage: tools/k8s/deploy.sh <overlay dir>    e.g. tools/k8s/deploy.sh k8s/overlays/prod
# env:   KUBECTL (default kubectl), NAMESPACE (default paper), TIMEOUT seconds per wait (default 600)
set -euo pipefail

overlay="${1:?usage: deploy.sh <overlay dir, e.g. k8s/overlays/prod>}"
KUBECTL="${KUBECTL:-kubectl}"
NAMESPACE="${NAMESPACE:-paper}"
TIMEOUT="${TIMEOUT:-600}"
SCHEMAS=(exchange oauth alerts)

log() { echo "[deploy] $*"; }

rendered="$(mktemp)"
trap 'rm -f "$rendered"' EXIT
"$KUBECTL" kustomize "$overlay" >"$rendered"

# Polls the Job until it reports success or failure (or the timeout passes).
wait_for_job() {
  local job="$1" deadline=$((SECONDS + TIMEOUT)) state
  while ((SECONDS < deadline)); do
    state="$("$KUBECTL" -n "$NAMESPACE" get job "$job" \
      -o jsonpath='{.status.succeeded}/{.status.conditions[?(@.type=="Failed")].status}')"
    if [[ "${state%%/*}" == "1" ]]; then
      log "$job complete"
      return 0
    fi
    if [[ "${state#*/}" == "True" ]]; then
      log "$job FAILED; last log lines:"
      "$KUBECTL" -n "$NAMESPACE" logs "job/$job" --tail=40 || true
      return 1
    fi
    sleep 3
  done
  log "$job did not finish within ${TIMEOUT}s"
  return 1
}

log "1/3 platform"
"$KUBECTL" apply -f "$rendered" \
  -l 'app.kubernetes.io/component!=server,app.kubernetes.io/component!=worker,app.kubernetes.io/component!=migration'
if grep -q 'app.kubernetes.io/component: datastore' "$rendered"; then
  log "waiting for the in-cluster datastores"
  "$KUBECTL" -n "$NAMESPACE" rollout status statefulset -l app.kubernetes.io/component=datastore --timeout="${TIMEOUT}s"
  "$KUBECTL" -n "$NAMESPACE" rollout status deployment -l app.kubernetes.io/component=datastore --timeout="${TIMEOUT}s"
fi

log "2/3 migrations"
"$KUBECTL" -n "$NAMESPACE" delete job -l app.kubernetes.io/component=migration --ignore-not-found --wait=true
for schema in "${SCHEMAS[@]}"; do
  "$KUBECTL" apply -f "$rendered" -l "app.kubernetes.io/name=migrate-$schema"
  wait_for_job "migrate-$schema"
done

log "3/3 apps"
"$KUBECTL" apply -f "$rendered" -l app.kubernetes.io/component=server
"$KUBECTL" apply -f "$rendered" -l app.kubernetes.io/component=worker
"$KUBECTL" -n "$NAMESPACE" rollout status deployment -l 'app.kubernetes.io/component!=datastore' --timeout="${TIMEOUT}s"
log "done"
