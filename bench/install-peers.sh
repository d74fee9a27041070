#!/usr/bin/env bash
# Installs the peer MPI libraries that `railcoll bench --peer openmpi` compares against:
# Open MPI (openmpi-bin: mpirun; libopenmpi-dev: mpicc and headers) and, with --with-mpich, MPICH as an
# alternative. Idempotent: installed packages are left alone, and the package lists are refreshed
# only when something is missing. Needs root (or sudo) and Debian's apt.
#
# Usage: bench/install-peers.sh [--with-mpich]
set -euo pipefail

packages=(openmpi-bin libopenmpi-dev)
case "${1:-}" in
  "") ;;
  --with-mpich) packages+=(mpich libmpich-dev) ;;
  -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "install-peers.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-peers.sh: apt-get not found; install Open MPI (mpicc, mpirun) with this system's package manager" >&2
  exit 1
fi

missing=()
for p in "${packages[@]}"; do
  # dpkg-query says "install ok installed" only for a fully installed package.
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-peers.sh: already installed: ${packages[*]}"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-peers.sh: need root to install ${missing[*]} (run as root, or install sudo)" >&2
    exit 1
  fi
  sudo=(sudo)
fi

echo "install-peers.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq "${missing[@]}"
# Debian's Open MPI names are mpicc.openmpi/mpirun.openmpi whichever MPI the plain names point to.
command -v mpirun.openmpi >/dev/null && mpirun.openmpi --version | head -n 1
