#!/usr/bin/env bash
# Builds the Docker image Dockhand's sandbox runs commands in (default dockhand-sandbox:latest):
# bash, coreutils, findutils, grep, sed, git, ripgrep, python3, procps, ca-certificates.
#
#   scripts/build-sandbox-image.sh [--force] [--image NAME] [--packages "openjdk-17-jdk-headless maven"]
#
# Skips the build when the image exists, unless --force. --packages adds toolchains (a Java project needs its JDK
# inside the sandbox); give such an image its own --image name and pass the same name to dockhand --sandbox-image.
# Where a base image can be pulled it runs `docker build` on sandbox/docker/Dockerfile; where no registry answers,
# it builds a root file system with debootstrap (mirror and release taken from this host's apt sources) and
# imports it with `docker import` (needs root).
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
image="dockhand-sandbox:latest"
force=0
extra=""
while [ $# -gt 0 ]; do
  case "$1" in
    --force) force=1 ;;
    --image) image="$2"; shift ;;
    --packages) extra="$2"; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "build-sandbox-image: unknown option $1; see --help" >&2; exit 2 ;;
  esac
  shift
done

base_packages="bash coreutils findutils grep sed git ripgrep python3 procps ca-certificates util-linux"

if ! docker info >/dev/null 2>&1; then
  echo "build-sandbox-image: Docker does not answer; start it first (scripts/docker-setup.sh)." >&2
  exit 1
fi
if [ "$force" = 0 ] && docker image inspect "$image" >/dev/null 2>&1; then
  echo "build-sandbox-image: $image exists; nothing to do (use --force to rebuild)."
  exit 0
fi

if timeout 30 docker pull -q debian:bookworm-slim >/dev/null 2>&1; then
  echo "build-sandbox-image: building $image with docker build..."
  docker build -q -t "$image" --build-arg "EXTRA_PACKAGES=$extra" "$root/sandbox/docker"
  exit 0
fi

echo "build-sandbox-image: no registry answers; building $image from debootstrap (about a minute)..."
if [ "$(id -u)" != 0 ]; then
  echo "build-sandbox-image: debootstrap needs root; rerun with sudo." >&2
  exit 1
fi
if ! command -v debootstrap >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null
fi

# The host's own mirror and release: the one package source known to be reachable from here.
mirror=""
suite=""
if compgen -G "/etc/apt/sources.list.d/*.sources" >/dev/null; then
  mirror="$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources | head -n 1 | awk '{print $2}')"
  suite="$(grep -h '^Suites:' /etc/apt/sources.list.d/*.sources | head -n 1 | awk '{print $2}')"
fi
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror="$(grep -E '^deb ' /etc/apt/sources.list | head -n 1 | awk '{print $2}')"
  suite="$(grep -E '^deb ' /etc/apt/sources.list | head -n 1 | awk '{print $3}')"
fi
if [ -z "$suite" ]; then
  suite="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
fi
mirror="${mirror:-http://deb.debian.org/debian}"

rootfs="$(mktemp -d /tmp/dockhand-rootfs.XXXXXX)"
trap 'rm -rf "$rootfs"' EXIT
include="$(echo "$base_packages $extra" | tr -s ' ' ',' | sed 's/^,//; s/,$//')"
if ! debootstrap --variant=minbase --include="$include" "$suite" "$rootfs" "$mirror" >"$rootfs.log" 2>&1; then
  tail -n 20 "$rootfs.log" >&2
  echo "build-sandbox-image: debootstrap failed (log above)." >&2
  exit 1
fi
rm -f "$rootfs.log"
# Package caches and lists are dead weight in the image.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
tar -C "$rootfs" -c . | docker import --change 'CMD ["sleep", "infinity"]' - "$image" >/dev/null
echo "build-sandbox-image: built $image ($(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1/1048576}'))."
