#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# integration/run counts honestly (kselftest style): pass, fail, xfail,
# xpass, skip and error apart in the Totals line, a hang reported as
# TIMEOUT, the last line true, the same with -j.  The scenarios are stubs
# that print what integration/lib.sh prints for each outcome, so no guest
# boots here (t-harness checks the real lines from booted guests).
. "$(dirname "$0")/lib.sh"
echo "TAP version 13"
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"
export SWAPNFS_RESULTS=$tmp/r SWAPNFS_KERNEL=/etc/hostname

# stub NAME EXIT LINE...: a scenario that prints LINEs and exits EXIT.
stub() {
	local name=$1 rc=$2
	shift 2
	{
		echo '#!/bin/bash'
		echo 'echo "TAP version 13"; echo "1..1"'
		printf 'echo %q\n' "$@"
		echo "exit $rc"
	} >"$tmp/$name.sh" && chmod +x "$tmp/$name.sh"
}
stub s1-pass 0 "ok 1 s1-pass"
stub s2-xfail 0 "ok 1 s2-xfail # XFAIL gap on base: the client hung"
stub s3-fail 1 "not ok 1 s3-fail" "# FAIL s3-fail [base]: 3 pages read back wrong"
stub s4-hang 1 "not ok 1 s4-hang # TIMEOUT 900 seconds" "# FAIL s4-hang [base]: client did not finish within 900s (hang?)"
stub s5-xpass 1 "not ok 1 s5-xpass" "# XPASS s5-xpass [base]: expected the gap on base (x) but the scenario passed"
stub s6-skip 4 "ok 1 s6-skip # SKIP no debug kernel given"
stub s7-error 1
stub s8-pass 0 "ok 1 s8-pass"
all=("$tmp"/s*.sh)

expect_success 'run: every outcome counted apart, the last line true' '
	! out=$(integration/run "${all[@]}" 2>&1) && runout=$out &&
	printf "%s\n" "$out" &&
	grep -qx "# Totals: pass:2 fail:2 xfail:1 xpass:1 skip:1 error:1" <<<"$out" &&
	grep -qx "3 passed, 4 failed, 1 skipped" <<<"$out"
'
expect_success 'run: each scenario has its KTAP line with the right directive' '
	out=$runout &&
	grep -qx "ok 1 s1-pass" <<<"$out" &&
	grep -qx "ok 2 s2-xfail # XFAIL gap on base: the client hung" <<<"$out" &&
	grep -qx "not ok 3 s3-fail" <<<"$out" &&
	grep -qx "not ok 4 s4-hang # TIMEOUT 900 seconds" <<<"$out" &&
	grep -qx "not ok 5 s5-xpass # XPASS" <<<"$out" &&
	grep -qx "ok 6 s6-skip # SKIP no debug kernel given" <<<"$out" &&
	grep -qx "not ok 7 s7-error # ERROR exit status 1 without a result line" <<<"$out" &&
	grep -qx "ok 8 s8-pass" <<<"$out"
'
expect_success 'run -j 3: the same lines in the same order' '
	! out3=$(integration/run -j 3 "${all[@]}" 2>&1) &&
	[ "$(grep -E "^(not )?ok |^# Totals|passed," <<<"$runout")" = "$(grep -E "^(not )?ok |^# Totals|passed," <<<"$out3")" ]
'
expect_success 'run: all passing and xfail exits 0' '
	out=$(integration/run "$tmp/s1-pass.sh" "$tmp/s2-xfail.sh" 2>&1) &&
	grep -qx "# Totals: pass:1 fail:0 xfail:1 xpass:0 skip:0 error:0" <<<"$out" &&
	grep -qx "2 passed, 0 failed, 0 skipped" <<<"$out"
'
expect_success 'scripts/test tallies the last line of a step (xfail as passed)' '
	printf "%s\n" "  ok 1 a" "ok 1 x # XFAIL gap" "# Totals: pass:0 fail:0 xfail:1 xpass:0 skip:0 error:0" "1 passed, 0 failed, 0 skipped" >"$tmp/log" &&
	out=$(sed -n "/^# Count a step/,/^}/p" scripts/test) &&
	out=$(log=$tmp/log pass=0 fail=0 skip=0 bash -c "$out"$'"'"'\ntally x 0; echo "$pass $fail $skip"'"'"') &&
	grep -qx "1 0 0" <<<"$out"
'
expect_success 'scripts/test times each step and lists the phases a step reports' '
	fns=$(sed -n "/^# Count a step/,/^}/p; /^# step NAME/,/^}/p" scripts/test) &&
	out=$(log=$tmp/log2 pass=0 fail=0 skip=0 bash -c "$fns"$'"'"'
		now() { date +%s; }; times=()
		fake() { echo "# phase integrate build base: 42 s"; echo "1 passed, 0 failed, 0 skipped"; }
		step integrate fake >/dev/null; printf "%s\n" "${times[@]}"'"'"') &&
	printf "%s\n" "$out" &&
	grep -Eq "^integrate +[0-9]+ s$" <<<"$out" &&
	grep -Eq "^  integrate build base +42 s$" <<<"$out"
'
done_testing
