#!/usr/bin/env bash
# chat-bench.sh measures the chat in a real terminal (tmux): launch to a
# ready prompt (median of 10, beside the same wait for a shell that only
# echoes the prompt), the idle resident memory and a typed key to the
# screen (median of 20). Usage: chat-bench.sh [path/to/agent]
# No request reaches a model: the chat only starts and takes keys.
# Run from the source tree with BENCH_GO=1, it then runs the Go
# benchmarks of the rest: a keystroke's Update+View in-process with 10
# and 2,000 earlier messages, and a 100 KB reply streamed through tmux
# from a fake provider on 127.0.0.1 (CPU share of one core).
set -euo pipefail
bin=$(realpath "${1:-bin/agent}")
sock="agent-bench-$$"
work=$(mktemp -d)
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/proj"
envs=(env HOME="$work" XDG_CONFIG_HOME="$work/.config" TERM=xterm-256color
	GEMINI_API_KEY=bench GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9)

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f", m/1e6}'; }
screen() { tmux -L "$sock" capture-pane -p -t "$1"; }

# A session that stays keeps the tmux server up between launches.
tmux -L "$sock" -f /dev/null new-session -d -s keep -x 80 -y 10 "sleep 600"
launch=()
for i in $(seq 10); do
	t0=$(now)
	tmux -L "$sock" new-session -d -s "l$i" -x 100 -y 30 -c "$work/proj" "${envs[@]}" "$bin"
	until screen "l$i" | grep -q 'Ask, or /help'; do :; done
	launch+=($(( $(now) - t0 )))
	if [ "$i" -lt 10 ]; then
		tmux -L "$sock" kill-session -t "l$i"
		# Let the chat that was closed exit before the next one starts:
		# on a small machine its exit would be measured too.
		sleep 0.3
	fi
done
# The same wait for a program that prints the prompt at once: what tmux
# and the polling cost by themselves.
base=()
for i in $(seq 10); do
	t0=$(now)
	tmux -L "$sock" new-session -d -s "b$i" -x 100 -y 30 "echo 'Ask, or /help'; sleep 60"
	until screen "b$i" | grep -q 'Ask, or /help'; do :; done
	base+=($(( $(now) - t0 )))
	tmux -L "$sock" kill-session -t "b$i"
	sleep 0.3
done
echo "baseline (echo in tmux): median $(printf '%s\n' "${base[@]}" | median) ms"
echo "launch to ready prompt: median $(printf '%s\n' "${launch[@]}" | median) ms (10 runs)"

sleep 1
pid=$(tmux -L "$sock" display -p -t l10 '#{pane_pid}')
echo "idle resident memory: $(( $(ps -o rss= -p "$pid") / 1024 )) MB"

keys=()
for i in $(seq 20); do
	before=$(screen l10 | { grep -o x || true; } | wc -l)
	t0=$(now)
	tmux -L "$sock" send-keys -t l10 -l x
	until [ "$(screen l10 | { grep -o x || true; } | wc -l)" -gt "$before" ]; do :; done
	keys+=($(( $(now) - t0 )))
done
echo "key to screen: median $(printf '%s\n' "${keys[@]}" | median) ms (20 keys, including tmux's capture)"

if [ -n "${BENCH_GO:-}" ]; then
	go test ./agent/ui/chat -run '^$' -bench Keystroke -benchtime 20000x | grep Benchmark
	go test ./cmd/agent -run '^$' -bench 'ChatTmux/stream' -benchtime 3x | grep Benchmark
fi
