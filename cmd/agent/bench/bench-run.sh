#!/usr/bin/env bash
# Whole-process memory and time of what every command pays at start:
# `agent version`, a read-then-answer `agent run` (against a fake Gemini
# server on 127.0.0.1), `agent serve --stdio` to tools/list and the idle
# chat (in tmux), cold and warm, for this tree's binary and, with BASE, a
# base commit's side by side. The binaries run alternately and medians
# are compared (see cmd/agent/bench).
#
#   cmd/agent/bench/bench-run.sh [BINARY...]
#
# Without BINARY, this tree is built with `make build`. BASE=<commit>
# also builds that commit with its own `make build` (in a temporary git
# worktree) and lists it first: the "vs[0]" columns are the change from
# the base, and the start-up rule is checked against it. RUNS sets the
# rounds (default 15); CACHE the page cache before the warm runs: faulted
# (default: what a run of each command loaded) or read (the whole
# binary). With hyperfine installed, the start time of `agent version` is
# also compared.
#
# The start-up rule: a change stays within 10% or 1 ms (whichever is
# larger) of the base's wall time and within 10% of its peak memory, for
# each of these commands (the chat: its idle memory). The budgets (warm,
# quiet 2-core machine): binary 40 MB; `agent version` 26 MB; `agent run`
# 30 MB and 16 ms; `agent serve --stdio` 30 MB and 12 ms; the idle chat
# 32 MB; the run's first request 8,192 bytes. The script fails when
# either is broken.
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
status=0
"$tmp/bench" -runs "$runs" -cache "${CACHE:-faulted}" "${bins[@]}" || status=$?

if command -v hyperfine >/dev/null; then
	cmds=()
	for b in "${bins[@]}"; do cmds+=("${b#*=} version"); done
	hyperfine -N --warmup 5 --runs "$((runs * 2))" --style basic "${cmds[@]}" 2>&1 | grep -Ev '^\s*$'
fi
exit "$status"
