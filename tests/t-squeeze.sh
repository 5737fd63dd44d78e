#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/squeeze on the host, against a plain file (SQUEEZE_KNOB) instead
# of vm.min_free_kbytes, which a test must not touch here: it raises the
# value for HOLD s in every PERIOD, puts the old one back in between and
# when it is stopped (also in the middle of a squeeze), counts the
# squeezes, and refuses bad arguments with exit 2.
. "$(dirname "$0")/lib.sh"
echo "TAP version 13"
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"
bin=tools/squeeze
knob=$tmp/knob

expect_success 'make -C tools builds a static squeeze' '
	make -C tools squeeze >/dev/null && [ -x $bin ] &&
	! ldd $bin >/dev/null 2>&1
'
# becomes VALUE: the knob holds VALUE within 10 s.
becomes() {
	local i
	for i in $(seq 100); do
		[ "$(cat "$knob")" = "$1" ] && return 0
		sleep 0.1
	done
	echo "# knob is $(cat "$knob"), not $1, after 10 s"
	return 1
}
expect_success 'raises the value during a squeeze and puts it back after' '
	echo 1294 >"$knob" &&
	{ SQUEEZE_KNOB=$knob $bin 9999 6 2 >"$tmp/out" 2>&1 & } &&
	pid=$! &&
	[ "$(cat "$knob")" = 1294 ] && becomes 9999 && becomes 1294 &&
	kill $pid && wait $pid && [ "$(cat "$knob")" = 1294 ] &&
	grep -qx "squeezes=1" "$tmp/out"
'
expect_success 'stopped in the middle of a squeeze, the old value is back' '
	echo 1294 >"$knob" &&
	{ SQUEEZE_KNOB=$knob $bin 9999 3 2 >"$tmp/out" 2>&1 & } &&
	pid=$! &&
	becomes 9999 && kill $pid && wait $pid && [ "$(cat "$knob")" = 1294 ] &&
	grep -qx "squeezes=1" "$tmp/out"
'
expect_success 'bad arguments and a missing knob: one line, exit 2 or 1' '
	for a in "" "x 3 2" "1 3 3" "1 0 1" "1 3"; do
		out=$($bin $a 2>&1); rc=$?
		[ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] || { echo "# $a -> $rc: $out"; exit 1; }
	done &&
	out=$(SQUEEZE_KNOB=$tmp/none $bin 1 3 2 2>&1); rc=$? &&
	[ "$rc" = 1 ] && grep -q "^squeeze: cannot read $tmp/none" <<<"$out"
'
done_testing
