#!/bin/sh
# Whole-process benchmark of the file tools on a large file.
#
#   tools/fsedit/bench/bench.sh [SIZE_MB ...]     (default: 50 200)
#
# For each size it makes a file of ~100-byte lines and measures, as whole
# processes, with /usr/bin/time -v (best of 3 runs):
#   cp          a plain copy of the file (the yardstick)
#   partial     `agent tool-call --state`: a 10-line partial write in the
#               middle, the read having been done by an earlier process
#               (as in a continued conversation): streamed to a temp file,
#               checked against the read with CRC-32C, SHA-256 of the new
#               content for the backup manifest, fsync, rename, fsync of
#               the folder; the backup is a hard link of the old file
#   read+partial  the read (the 10 lines, which hashes the whole file) and the
#               same partial write in one process
#   read_range  read_file of 1,000 lines in the middle
# and prints seconds and peak RSS. Peak RSS should not grow with the size.
set -eu
cd "$(dirname "$0")/../../.."
SIZES=${*:-50 200}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
go build -o "$WORK/agent" ./cmd/agent

# best3 LABEL CMD...: runs CMD three times, prints the best time and its RSS.
best3() {
	label=$1
	shift
	best=""
	for _ in 1 2 3; do
		/usr/bin/time -v -o "$WORK/time.txt" "$@" >/dev/null
		secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$WORK/time.txt")
		rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.txt")
		if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then
			best=$secs
			bestrss=$rss
		fi
	done
	printf '%-12s %6s MB  %7.2f s  %8d KB peak RSS\n' "$label" "$SIZE" "$best" "$bestrss"
	eval "T_$label=$best"
}

for SIZE in $SIZES; do
	P="$WORK/proj"
	rm -rf "$P"
	mkdir -p "$P"
	LINES=$((SIZE * 10000))
	awk -v n="$LINES" 'BEGIN { for (i = 1; i <= n; i++) printf "line %08d: the quick brown fox jumps over the lazy dog, again and again and again.\n", i }' >"$P/big.txt"
	MID=$((LINES / 2))
	printf 'replaced line %d\n' 1 2 3 4 5 6 7 8 9 10 >"$WORK/ten.txt"
	sync

	best3 cp cp "$P/big.txt" "$WORK/copy.txt"
	rm -f "$WORK/copy.txt"
	WRITE="write_file operation_type=partial file_path=big.txt start_line=$MID end_line=$((MID + 9)) content=@$WORK/ten.txt"
	"$WORK/agent" tool-call -q --dir "$P" --state "$WORK/state.json" read_file file_path=big.txt start_line=$MID end_line=$((MID + 9)) >/dev/null
	# shellcheck disable=SC2086
	best3 partial "$WORK/agent" tool-call -q --dir "$P" --state "$WORK/state.json" $WRITE
	# shellcheck disable=SC2086
	best3 read_partial "$WORK/agent" tool-call -q --dir "$P" read_file file_path=big.txt start_line=$MID end_line=$((MID + 9)) + $WRITE
	best3 read_range "$WORK/agent" tool-call -q --dir "$P" read_file file_path=big.txt start_line=$MID end_line=$((MID + 999))
	awk "BEGIN { printf \"partial / cp = %.2fx, read+partial / cp = %.2fx\n\", $T_partial / $T_cp, $T_read_partial / $T_cp }"
	rm -rf "$P"
done
