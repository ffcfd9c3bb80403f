#!/usr/bin/env bash
# Whole-process speed of `agent prompt` against `find . -type f` on the
# same tree, with a warm cache. The two commands run alternately, so load
# on the machine affects both alike, and their medians are compared.
#
#   prompt/bench/bench-prompt.sh [TREE...]
#
# Without TREE, a tree of about 40,000 files is made in a temporary folder
# with `npm install` (it needs npm and its registry) and removed at the end.
# RUNS sets the number of runs of each command (default 21).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
runs=${RUNS:-21}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

trees=("$@")
if [ ${#trees[@]} -eq 0 ]; then
	echo "making a tree with npm install in $tmp/tree ..." >&2
	mkdir -p "$tmp/tree"
	(cd "$tmp/tree" && npm init -y >/dev/null &&
		npm install --silent --no-audit --no-fund @mui/icons-material@5 typescript lodash rxjs >/dev/null)
	trees=("$tmp/tree" "$tmp/tree/node_modules")
fi

(cd "$repo" && go build -o "$tmp/agent" ./cmd/agent)

# micros prints how long the command took, in microseconds.
micros() {
	local start=${EPOCHREALTIME/[.,]/}
	"$@" >/dev/null 2>&1
	local end=${EPOCHREALTIME/[.,]/}
	echo $((end - start))
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for tree in "${trees[@]}"; do
	cd "$tree"
	files=$(find . -type f | wc -l)
	for _ in 1 2 3; do # warm the cache
		find . -type f >/dev/null
		"$tmp/agent" prompt >/dev/null
	done
	: >"$tmp/find.txt"
	: >"$tmp/agent.txt"
	for _ in $(seq "$runs"); do
		micros find . -type f >>"$tmp/find.txt"
		micros "$tmp/agent" prompt >>"$tmp/agent.txt"
	done
	f=$(median <"$tmp/find.txt")
	a=$(median <"$tmp/agent.txt")
	echo "tree: $tree ($files files)"
	echo "  find . -type f  median $(awk -v v="$f" 'BEGIN {printf "%.1f", v/1000}') ms"
	echo "  agent prompt    median $(awk -v v="$a" 'BEGIN {printf "%.1f", v/1000}') ms"
	echo "  ratio           $(awk -v a="$a" -v f="$f" 'BEGIN {printf "%.2f", a/f}') (target: at most 1.5)"
	echo "  $("$tmp/agent" prompt --stats | grep '^tree:')"
done
