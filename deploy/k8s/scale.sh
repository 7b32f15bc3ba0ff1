#!/bin/sh
# Sets an overlay's replica counts and regenerates its cluster file to match,
# so scaling is one number. Usage (from the repository root):
#   deploy/k8s/scale.sh deploy/k8s/overlays/example BACKENDS [KEEPERS]
# then: kubectl apply -k deploy/k8s/overlays/example
# BINRING names the command that runs the CLI (default: the built repository's),
# e.g. BINRING="docker run --rm binring:0.1.0".
set -eu
overlay=${1:?usage: scale.sh OVERLAY BACKENDS [KEEPERS]}
backends=${2:?usage: scale.sh OVERLAY BACKENDS [KEEPERS]}
kustomization="$overlay/kustomization.yaml"
count_of() { sed -n "/- name: $1\$/{n;s/^ *count: *//p;}" "$kustomization"; }
keepers=${3:-$(count_of keeper)}
namespace=$(sed -n 's/^namespace: *//p' "$kustomization")
: "${namespace:?$kustomization sets no namespace}"
binring=${BINRING:-node "$(dirname "$0")/../../packages/cli/dist/main.js"}
# Generate first: a bad count fails here, before anything is rewritten.
file=$($binring cluster-file --backends "$backends" --keepers "$keepers" \
  --backend-address "backend-{i}.backend.$namespace.svc:7000" \
  --keeper-address "keeper-{i}.keeper.$namespace.svc:7600")
printf '%s\n' "$file" >"$overlay/binring.json"
sed -i -e "/- name: backend\$/{n;s/count: .*/count: $backends/;}" \
  -e "/- name: keeper\$/{n;s/count: .*/count: $keepers/;}" "$kustomization"
echo "$overlay: $backends backends, $keepers keepers; apply with kubectl apply -k $overlay"
