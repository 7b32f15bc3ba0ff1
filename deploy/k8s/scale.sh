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
  echo "scaling down from $previous: first stop backends one at a time with kubectl scale and let the" >&2
  echo "keepers repair each (deploy/README.md, Scaling); applying a lower count stops several at once." >&2
fi
printf '%s\n' "$file" >"$overlay/binring.json"
sed -i -e "/- name: backend\(-.*\)\?\$/{n;s/count: .*/count: $backends/;}" \
  -e "/- name: keeper\$/{n;s/count: .*/count: $keepers/;}" "$kustomization"
echo "$overlay: $backends backends${zones:+ per zone ($zones)}, $keepers keepers; apply with kubectl apply -k $overlay"
