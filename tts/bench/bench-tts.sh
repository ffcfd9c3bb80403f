#!/bin/sh
# bench-tts.sh compares whole processes on the same text, in the same run:
# `agent tts --provider espeak` (split, three pieces at a time, joined)
# against `espeak-ng -w` speaking the whole file in one go. The text (20 KB
# of English prose by default) is made here, in a temporary folder.
# Usage: tts/bench/bench-tts.sh [BYTES]   (needs bin/agent: make build)
set -eu
bytes=${1:-20480}
agent=${AGENT:-$(pwd)/bin/agent}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
i=0
: >"$dir/text.txt"
while [ "$(wc -c <"$dir/text.txt")" -lt "$bytes" ]; do
	i=$((i + 1))
	printf 'Sentence %d of the benchmark says something worth hearing. ' "$i" >>"$dir/text.txt"
	[ $((i % 10)) -eq 0 ] && printf '\n\n' >>"$dir/text.txt"
done
head -c "$bytes" "$dir/text.txt" >"$dir/t.txt"
cd "$dir"
if command -v hyperfine >/dev/null; then
	hyperfine -w 1 -r 3 \
		"XDG_CONFIG_HOME=$dir $agent tts --provider espeak --file t.txt -o a.wav --force" \
		"espeak-ng -v en-us -w e.wav -f t.txt"
else
	time XDG_CONFIG_HOME="$dir" "$agent" tts --provider espeak --file t.txt -o a.wav --force
	time espeak-ng -v en-us -w e.wav -f t.txt
fi
