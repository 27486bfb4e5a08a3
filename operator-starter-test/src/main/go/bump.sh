#!/usr/bin/env bash
# Re-pins the local API server's upstream versions. The go.mod files are the one place the
# versions live; the Java side reads them from there (GoModule.upstreamVersion).
#
#   ./bump.sh kubernetes v1.37.3   # k8s.io/kubernetes, with a replace for every staging module
#   ./bump.sh etcd v3.6.17         # go.etcd.io/etcd/server/v3
#
# Needs Go and the module proxy. Run the operator-starter-test tests afterwards: GoModuleTest checks
# that every staging module is pinned to the matching release.
set -euo pipefail
cd "$(dirname "$0")"

what=${1:?usage: bump.sh kubernetes|etcd VERSION}
version=${2:?usage: bump.sh kubernetes|etcd VERSION}

case "$what" in
  kubernetes)
    staging="v0.${version#v1.}"
    mod=$(go mod download -json "k8s.io/kubernetes@${version}" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')
    {
      printf 'module dev.operatorstarter/operator-starter-test/kubernetes\n\n'
      sed -n 's/^go \(.*\)/go \1/p' "$mod" | head -n 1
      printf '\nrequire k8s.io/kubernetes %s\n\n' "$version"
      printf 'tool (\n\tk8s.io/kubernetes/cmd/kube-apiserver\n\tk8s.io/kubernetes/cmd/kube-controller-manager\n\tk8s.io/kubernetes/cmd/kube-scheduler\n)\n\n'
      printf 'replace (\n'
      grep -E '=> \./staging/src/' "$mod" | awk -v v="$staging" '{print "\t" $1 " => " $1 " " v}'
      printf ')\n'
    } > kubernetes/go.mod
    rm -f kubernetes/go.sum
    (cd kubernetes && go mod tidy)
    ;;
  etcd)
    printf 'module dev.operatorstarter/operator-starter-test/etcd\n\ngo 1.26.0\n\nrequire go.etcd.io/etcd/server/v3 %s\n\ntool go.etcd.io/etcd/server/v3\n' \
      "$version" > etcd/go.mod
    rm -f etcd/go.sum
    (cd etcd && go mod tidy)
    ;;
  *)
    echo "usage: bump.sh kubernetes|etcd VERSION" >&2
    exit 2
    ;;
esac
echo "pinned $what $version; now run: mvn -pl operator-starter-test verify"
