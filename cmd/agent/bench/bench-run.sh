#!/usr/bin/env bash
# Whole-process memory and time of `agent run` (a read-then-answer task
# against a fake Gemini server on 127.0.0.1) and `agent version`, for this
# tree's binary and, with BASE, a base commit's side by side. The binaries
# run alternately and medians are compared (see cmd/agent/bench).
#
#   cmd/agent/bench/bench-run.sh [BINARY...]
#
# Without BINARY, this tree is built with `make build`. BASE=<commit>
# also builds that commit with its own `make build` (in a temporary git
# worktree) and lists it first, so the "vs[0]" column is the change from
# the base. RUNS sets the runs of each command (default 15); CACHE the
# binaries' page cache before each round: faulted (default), read or asis.
# With hyperfine installed, the start time of `agent version` is also
# compared.
#
# Targets: `agent run` about 20 ms and 36 MB, each within 5% of the base
# (a8ab72a); the run's first request at most 8,192 bytes (it fails above).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../../.." && pwd)
runs=${RUNS:-15}
tmp=$(mktemp -d)
base_tree=""
cleanup() {
	if [ -n "$base_tree" ]; then
		git -C "$repo" worktree remove --force "$base_tree" >/dev/null 2>&1 || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
	if [ -n "${BASE:-}" ]; then
		base_tree="$tmp/base"
		git -C "$repo" worktree add --detach "$base_tree" "$BASE" >/dev/null 2>&1
		echo "building base $BASE ..." >&2
		make -s -C "$base_tree" build BIN="$tmp/agent-base" >/dev/null
		bins+=("base=$tmp/agent-base")
	fi
	echo "building this tree ..." >&2
	make -s -C "$repo" build BIN="$tmp/agent" >/dev/null
	bins+=("now=$tmp/agent")
fi

(cd "$repo" && go build -o "$tmp/bench" ./cmd/agent/bench)
"$tmp/bench" -runs "$runs" -cache "${CACHE:-faulted}" "${bins[@]}"

if command -v hyperfine >/dev/null; then
	cmds=()
	for b in "${bins[@]}"; do cmds+=("${b#*=} version"); done
	hyperfine -N --warmup 5 --runs "$((runs * 2))" --style basic "${cmds[@]}" 2>&1 | grep -Ev '^\s*$'
fi
