#!/bin/sh
# Sets an overlay's replica counts and regenerates its cluster file to match,
# so scaling is one number. Usage (from the repository root):
#   deploy/k8s/scale.sh deploy/k8s/overlays/example BACKENDS [KEEPERS]
#   deploy/k8s/scale.sh deploy/k8s/overlays/zones BACKENDS_PER_ZONE [KEEPERS]
# then: kubectl apply -k OVERLAY
# An overlay whose replicas name backend-ZONE StatefulSets is zoned: each gets
# BACKENDS_PER_ZONE pods, and binring.json gives each backend its zone.
# BINRING names the command that runs the CLI (default: the built repository's),
# e.g. BINRING="docker run --rm binring:0.1.0".
set -eu
usage="usage: scale.sh OVERLAY BACKENDS [KEEPERS]"
overlay=${1:?$usage}
backends=${2:?$usage}
kustomization="$overlay/kustomization.yaml"
count_of() { sed -n "/- name: $1\$/{n;s/^ *count: *//p;}" "$kustomization"; }
keepers=${3:-$(count_of keeper)}
namespace=$(sed -n 's/^namespace: *//p' "$kustomization")
: "${namespace:?$kustomization sets no namespace}"
zones=$(sed -n 's/^ *- name: backend-\(.*\)$/\1/p' "$kustomization" | paste -sd, -)
binring=${BINRING:-node "$(dirname "$0")/../../packages/cli/dist/main.js"}
if [ -n "$zones" ]; then
  set -- --zones "$zones" --backend-address "backend-{zone}-{i}.backend.$namespace.svc:7000"
else
  set -- --backend-address "backend-{i}.backend.$namespace.svc:7000"
fi
# Generate first: a bad count fails here, before anything is rewritten.
# The file also names the client certificate where every pod mounts Secret binring-tls (the manifests'
# BINRING_TLS_DIR), so the SDK and the CLI in a pod call over mutual TLS.
file=$($binring cluster-file --backends "$backends" --keepers "$keepers" "$@" \
  --keeper-address "keeper-{i}.keeper.$namespace.svc:7600" --tls-dir /etc/binring-tls)
previous=$(sed -n "/- name: backend\(-.*\)\?\$/{n;s/^ *count: *//p;q;}" "$kustomization")
if [ "$backends" -lt "$previous" ]; then
  # A lower count stops the highest ordinals at once: each must have left the ring first
  # (binring admin remove-backend --wait), or a bin can lose every copy. Ask the keepers.
  # BINRING_STATUS names the command printing `binring status --json` (default: through keeper-0).
  status_cmd=${BINRING_STATUS:-kubectl -n $namespace exec keeper-0 -- node /app/packages/cli/dist/main.js status --json --config /etc/binring/binring.json}
  if ! status=$($status_cmd 2>&1); then
    echo "scale.sh: refusing to scale down from $previous: cannot ask the keepers which backends are on the ring ($status)." >&2
    echo "Drain each backend to stop first: binring admin remove-backend ADDRESS --wait (deploy/README.md, Scaling)." >&2
    exit 1
  fi
  i=$backends
  while [ "$i" -lt "$previous" ]; do
    if [ -n "$zones" ]; then
      names=$(printf '%s\n' "$zones" | tr , '\n' | sed "s/.*/backend-&-$i.backend.$namespace.svc:7000/")
    else
      names="backend-$i.backend.$namespace.svc:7000"
    fi
    for name in $names; do
      case $status in
        *"\"$name\""*)
          echo "scale.sh: refusing to scale down from $previous: $name is still on the ring. Drain it first:" >&2
          echo "  binring admin remove-backend $name --wait   (deploy/README.md, Scaling)" >&2
          exit 1
          ;;
      esac
    done
    i=$((i + 1))
  done
fi
printf '%s\n' "$file" >"$overlay/binring.json"
sed -i -e "/- name: backend\(-.*\)\?\$/{n;s/count: .*/count: $backends/;}" \
  -e "/- name: keeper\$/{n;s/count: .*/count: $keepers/;}" "$kustomization"
echo "$overlay: $backends backends${zones:+ per zone ($zones)}, $keepers keepers; apply with kubectl apply -k $overlay"
