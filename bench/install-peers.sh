#!/usr/bin/env bash
# Installs the peer MPI libraries that `railcoll bench --peer openmpi,mpj` compares against:
# Open MPI (openmpi-bin: mpirun; libopenmpi-dev: mpicc and headers), MPJ Express (libmpj-java, with Debian's
# log4j 1.2, commons-cli, commons-io and commons-codec jars it needs) and, with --with-mpich, MPICH as an
# alternative. Idempotent: installed packages are left alone, and the package lists are refreshed
# only when something is missing. Needs root (or sudo) and Debian's apt.
# MPJ Express as Debian installs it does not start (NoClassDefFoundError: org/apache/log4j/Layout: its jars
# name those four jars in their Class-Path, relative to /usr/share/mpj/lib, where Debian put none). Nothing
# here changes /usr: `bench --peer mpj` makes a private MPJ_HOME under railcoll-cli/target/peer-cache/mpj-home
# (MPJ's jars copied, links to /usr/share/java/{log4j-1.2,commons-cli,commons-io,commons-codec}.jar, conf
# linked to MPJ's) and runs MPJ from there (io.railcoll.bench.peer.MpjPeer).
#
# Usage: bench/install-peers.sh [--with-mpich]
set -euo pipefail

packages=(openmpi-bin libopenmpi-dev libmpj-java liblog4j1.2-java libcommons-cli-java libcommons-io-java libcommons-codec-java)
case "${1:-}" in
  "") ;;
  --with-mpich) packages+=(mpich libmpich-dev) ;;
  -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
