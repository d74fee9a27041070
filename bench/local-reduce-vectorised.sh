#!/usr/bin/env bash
# Checks that C2 vectorises every predefined combining loop of io.railcoll.reduce (issue 22: "the JIT vectorises
# simple counted loops; check that it does"). For each operator it runs LocalReduceBench briefly with C2's code
# printed, disassembles each *Loops method with objdump (bench/c2-vector-scan.py) and prints the packed-vector
# instructions found, or "not vectorised". Needs objdump (binutils) and a built bin/railcoll (run it once).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAVA_HOME="$("$root/bin/find-jdk")"
cp="$root/railcoll-cli/target/railcoll-cli.jar:$root/railcoll-cli/target/lib/*"
[ -f "$root/railcoll-cli/target/railcoll-cli.jar" ] || { echo "build first: bin/railcoll --help" >&2; exit 1; }
command -v objdump >/dev/null || { echo "objdump is needed (apt-get install binutils)" >&2; exit 1; }
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
for op in sum prod min max band bor bxor land lor lxor; do
  types=byte,short,char,int,long
  case $op in sum|prod|min|max) types=$types,float,double ;; esac
  "$JAVA_HOME/bin/java" -XX:+UnlockDiagnosticVMOptions -XX:CompileCommand=quiet "-XX:CompileCommand=print,*Loops::$op" \
    -cp "$cp" io.railcoll.bench.LocalReduceBench samples=1 sizes=8192 warmup-ms=600 op=$op types=$types >"$log" 2>&1
  for t in ${types//,/ }; do
    python3 "$root/bench/c2-vector-scan.py" "$log" "$(tr '[:lower:]' '[:upper:]' <<<"${t:0:1}")${t:1}Loops::$op" \
      | sed 's/^Compiled method (c2) *[0-9]* *[0-9]* *[0-9]* *//'
  done
done
