#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/swapstress checks what it claims on the host (no swap needed): a
# clean run verifies every page, a flipped byte and a killed worker fail
# the run, and bad options are setup errors (exit 2).  The hidden knobs
# SWAPSTRESS_CORRUPT and SWAPSTRESS_SELFKILL exist for this file: without
# them nothing shows that the tool can fail at all.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"
bin=tools/swapstress

# ss ARGS...: run the tool; stdout, stderr and exit status land in $tmp,
# and are shown (in a failing test's output) before passing the status on.
ss() {
	local rc=0
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	echo "$rc" >"$tmp/rc"
	cat "$tmp/out" "$tmp/err"
	return "$rc"
}
# field KEY: the value of "swapstress: ... KEY=VALUE" on stdout.
field() {
	sed -n "s/^swapstress: .*\\<$1=\\([^ ]*\\).*/\\1/p" "$tmp/out"
}
rc_is() { [ "$(cat "$tmp/rc")" = "$1" ]; }

expect_success 'make -C tools builds a static swapstress' '
	make -C tools swapstress >/dev/null &&
	[ -x $bin ] &&
	! readelf -l $bin | grep -q "Requesting program interpreter"
'

# 64 MiB = 16384 pages of 4 KiB; pass 1, pass 2 and the final verify
# each check every page once.
expect_success 'clean run: exit 0, result=pass, every page verified' '
	ss -p 2 -m 64 -n 2 -q &&
	rc_is 0 &&
	[ "$(field result)" = pass ] &&
	[ "$(field mismatches)" = 0 ] &&
	[ "$(field pages_verified)" = $((3 * 16384)) ] &&
	[ ! -s "$tmp/err" ]
'

expect_success 'clean run: the seven summary lines, in order' '
	ss -p 2 -m 64 -n 2 -q &&
	sed "s/=[^ ]*/=X/g" "$tmp/out" >"$tmp/shape" &&
	printf "swapstress: %s\n" "procs=X mib=X passes=X" "elapsed_ms=X" \
		"pages_verified=X" "mismatches=X" "pswpin=X pswpout=X" \
		"swapout_kib_s=X swapin_kib_s=X" "result=X" >"$tmp/want" &&
	diff "$tmp/want" "$tmp/shape" &&
	[ "$(field procs)" = 2 ] && [ "$(field mib)" = 64 ] &&
	[ "$(field passes)" = 2 ]
'

# 10 MiB over 3 workers does not divide evenly: no page may be lost.
expect_success 'uneven split, 3 passes: (passes + 1) x pages verified' '
	ss -p 3 -m 10 -n 3 -q &&
	rc_is 0 &&
	[ "$(field pages_verified)" = $((4 * 2560)) ]
'

expect_success 'time limit stops after pass 1, then the final verify' '
	ss -p 2 -m 64 -n 50 -t 0.001 -q &&
	rc_is 0 &&
	[ "$(field passes)" = 50 ] &&
	[ "$(field pages_verified)" = $((2 * 16384)) ]
'

expect_success 'SWAPSTRESS_CORRUPT=1: exit 1, mismatches=1, page named' '
	! SWAPSTRESS_CORRUPT=1 ss -p 2 -m 64 -n 2 -q &&
	rc_is 1 &&
	[ "$(field mismatches)" = 1 ] &&
	[ "$(field result)" = fail ] &&
	[ "$(field pages_verified)" = $((3 * 16384)) ] &&
	grep -q "^swapstress: MISMATCH proc 0 page 4096 pass 1 (seq verify)" \
		"$tmp/err"
'

expect_success 'SWAPSTRESS_SELFKILL=1: a killed worker fails the run' '
	! SWAPSTRESS_SELFKILL=1 ss -p 2 -m 16 -q &&
	rc_is 1 &&
	[ "$(field result)" = fail ] &&
	grep -q "^swapstress: proc 0 (pid [0-9]*) killed by signal 9" \
		"$tmp/err"
'

# Each bad command line: exit 2, one line on stderr, nothing on stdout.
for args in "-p 0" "-m abc" "-m 8 -r 2" "-r -1" "-n 0" "-x" "-m" \
	"-m 8 extra" "-m 1 -p 300"; do
	expect_success "bad options ($args): exit 2 with one line" "
		! ss $args &&
		rc_is 2 &&
		[ ! -s \"\$tmp/out\" ] &&
		[ \$(wc -l <\"\$tmp/err\") = 1 ]
	"
done

# The address-space limit makes every worker's mmap fail, like a share
# larger than RAM + swap does under the default overcommit heuristic.
expect_success 'mmap failure: exit 2 with one line naming the cause' '
	! (ulimit -v 200000 && ss -p 2 -m 1000 -q) &&
	rc_is 2 &&
	[ ! -s "$tmp/out" ] &&
	[ $(wc -l <"$tmp/err") = 1 ] &&
	grep -q "cannot map 500 MiB of anonymous memory" "$tmp/err"
'

expect_success '-h: usage on stdout, exit 0' '
	ss -h &&
	rc_is 0 &&
	grep -q "^usage: swapstress" "$tmp/out"
'

done_testing
