#!/bin/sh
# Sets an overlay's replica counts. Usage (from the repository root):
#   deploy/k8s/scale.sh [--new] deploy/k8s/overlays/example BACKENDS [KEEPERS]
#   deploy/k8s/scale.sh [--new] deploy/k8s/overlays/zones BACKENDS_PER_ZONE [KEEPERS]
# then: kubectl apply -k OVERLAY
# An overlay whose replicas name backend-ZONE StatefulSets is zoned: each gets
# BACKENDS_PER_ZONE pods.
#
# The overlay's binring.json is the SEED: the backends and keepers a new cluster
# starts with. Once it runs, membership is what the keepers record, so scaling
# changes only the counts: a pod past the seed asks the keepers to add it
# (--join), and the file stays as it is. It must: every pod mounts its
# ConfigMap, whose name carries a hash of it, so a new file would restart them all.
# --new writes the seed from the counts (`binring cluster-file`), for a cluster
# not created yet: it refuses when the keepers answer.
#
# A lower count stops the highest ordinals at once, so it is refused until each
# backend and keeper it would stop is off the ring: `binring admin remove-backend
# ADDRESS --wait` / `remove-keeper ADDRESS --wait` first (deploy/README.md, Scaling).
# BINRING_STATUS names the command printing `binring status --json` (default:
# through keeper-0, which no scaling stops: there is always a keeper).
# BINRING names the command that runs the CLI for --new (default: the built
# repository's), e.g. BINRING="docker run --rm binring:0.1.0".
set -eu
usage="usage: scale.sh [--new] OVERLAY BACKENDS [KEEPERS]"
new=false
if [ "${1:-}" = --new ]; then
  new=true
  shift
fi
overlay=${1:?$usage}
backends=${2:?$usage}
kustomization="$overlay/kustomization.yaml"
# The count of the first replicas entry whose name matches $1 (a sed pattern).
count_of() { sed -n "/- name: $1\$/{n;s/^ *count: *//p;q;}" "$kustomization"; }
previous_backends=$(count_of 'backend\(-.*\)\?')
previous_keepers=$(count_of keeper)
keepers=${3:-$previous_keepers}
positive() {
  case $2 in
    '' | 0* | *[!0-9]*)
      echo "scale.sh: $1 must be a positive integer, got \"$2\"${3:-}" >&2
      exit 2
      ;;
  esac
}
positive BACKENDS "$backends"
positive KEEPERS "$keepers" ": a cluster needs at least 1 keeper"
namespace=$(sed -n 's/^namespace: *//p' "$kustomization")
: "${namespace:?$kustomization sets no namespace}"
zones=$(sed -n 's/^ *- name: backend-\(.*\)$/\1/p' "$kustomization" | paste -sd, -)
file="$overlay/binring.json"
status_cmd=${BINRING_STATUS:-kubectl -n $namespace exec keeper-0 -- node /app/packages/cli/dist/main.js status --json --config /etc/binring/binring.json}

# The keepers' status; $1 says what is refused if they cannot be asked.
status=
ask_keepers() {
  if [ -n "$status" ]; then return; fi
  if ! status=$($status_cmd 2>&1); then
    echo "scale.sh: refusing to scale $1: cannot ask the keepers what is on the ring ($status)." >&2
    echo "Take each pod to stop off the ring first: binring admin remove-backend|remove-keeper ADDRESS --wait (deploy/README.md, Scaling)." >&2
    exit 1
  fi
  case $status in
    *'"backends"'*'"keepers"'* | *'"keepers"'*'"backends"'*) ;;
    *)
      echo "scale.sh: refusing to scale $1: $status_cmd printed no keeper status ($status)." >&2
      exit 1
      ;;
  esac
}
# Whether the status lists an address: a backend anywhere, a keeper among "keepers" (on the ring or leaving it).
lists() { printf '%s\n' "$status" | grep -Eq "\"address\" *: *\"$(printf '%s' "$1" | sed 's/[.]/\\./g')\""; }

if $new; then
  if status=$($status_cmd 2>/dev/null); then
    echo "scale.sh: refusing --new: the keepers of namespace $namespace answer, so that cluster runs and its" >&2
    echo "membership is theirs, not the file's. Scale it without --new (deploy/README.md, Scaling)." >&2
    exit 1
  fi
  binring=${BINRING:-node "$(dirname "$0")/../../packages/cli/dist/main.js"}
  if [ -n "$zones" ]; then
    set -- --zones "$zones" --backend-address "backend-{zone}-{i}.backend.$namespace.svc:7000"
  else
    set -- --backend-address "backend-{i}.backend.$namespace.svc:7000"
  fi
  # The file also names the client certificate where every pod mounts Secret binring-tls (the manifests'
  # BINRING_TLS_DIR), so the SDK and the CLI in a pod call over mutual TLS.
  seed=$($binring cluster-file --backends "$backends" --keepers "$keepers" "$@" \
    --keeper-address "keeper-{i}.keeper.$namespace.svc:7600" --tls-dir /etc/binring-tls)
  printf '%s\n' "$seed" >"$file"
elif [ ! -f "$file" ]; then
  echo "scale.sh: $file is missing: write a new cluster's seed with scale.sh --new." >&2
  exit 1
else
  if [ "$backends" -lt "$previous_backends" ]; then
    # Several backends stopped together can hold every copy of some bins: each must have left the ring.
    i=$backends
    while [ "$i" -lt "$previous_backends" ]; do
      if [ -n "$zones" ]; then
        names=$(printf '%s\n' "$zones" | tr , '\n' | sed "s/.*/backend-&-$i.backend.$namespace.svc:7000/")
      else
        names="backend-$i.backend.$namespace.svc:7000"
      fi
      for name in $names; do
        ask_keepers "down from $previous_backends"
        case $status in
          *"\"$name\""*)
            echo "scale.sh: refusing to scale down from $previous_backends: $name is still on the ring. Drain it first:" >&2
            echo "  binring admin remove-backend $name --wait   (deploy/README.md, Scaling)" >&2
            exit 1
            ;;
        esac
      done
      i=$((i + 1))
    done
  fi
  if [ "$keepers" -lt "$previous_keepers" ]; then
    # Each keeper it would stop must have handed its slice over and left the keeper ring.
    i=$keepers
    while [ "$i" -lt "$previous_keepers" ]; do
      name="keeper-$i.keeper.$namespace.svc:7600"
      ask_keepers "the keepers down from $previous_keepers"
      if lists "$name"; then
        echo "scale.sh: refusing to scale the keepers down from $previous_keepers: $name is still on the keeper ring (or leaving it). Take it off first:" >&2
        echo "  binring admin remove-keeper $name --wait   (deploy/README.md, Scaling)" >&2
        exit 1
      fi
      i=$((i + 1))
    done
  fi
fi
sed -i -e "/- name: backend\(-.*\)\?\$/{n;s/count: .*/count: $backends/;}" \
  -e "/- name: keeper\$/{n;s/count: .*/count: $keepers/;}" "$kustomization"
if $new; then
  what="wrote the seed $file"
else
  what="$file (the seed) unchanged"
fi
echo "$overlay: $backends backends${zones:+ per zone ($zones)}, $keepers keepers; $what; apply with kubectl apply -k $overlay"
