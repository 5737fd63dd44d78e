#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# integration/repeat runs one scenario N times and counts the verdicts as
# integration/run does (k/n), writes a summary per scenario and label, and
# the "repeat" table of RESULTS.md from all of them.  The scenario is a
# stub whose outcome changes from run to run (a counter file), so the
# counts can only come out right if every run was really made and read.
. "$(dirname "$0")/lib.sh"
echo "TAP version 13"
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"
export SWAPNFS_RESULTS_MD=$tmp/RESULTS.md

# Run 1 hangs, runs 2 and 4 pass, run 3 fails, run 5 shows the gap.
cat >"$tmp/flaky.sh" <<EOF
#!/bin/bash
n=\$(( \$(cat "$tmp/count" 2>/dev/null || echo 0) + 1 )); echo \$n >"$tmp/count"
echo "TAP version 13"; echo "1..1"
case \$n in
1) echo "not ok 1 flaky # TIMEOUT 900 seconds"; echo "# FAIL flaky [base]: client did not finish within 900s (hang?)"; exit 1 ;;
3) echo "not ok 1 flaky"; echo "# FAIL flaky [base]: swapstress exited 135 (SIGBUS)"; exit 1 ;;
5) echo "ok 1 flaky # XFAIL gap on base: SIGBUS"; exit 0 ;;
*) echo "ok 1 flaky"; exit 0 ;;
esac
EOF
chmod +x "$tmp/flaky.sh"

expect_success 'repeat -n 5: every run made, the verdicts counted apart' '
	out=$(integration/repeat -n 5 --kernel /etc/hostname --label base \
		--results "$tmp/r" "$tmp/flaky.sh" 2>&1) &&
	[ "$(cat "$tmp/count")" = 5 ] &&
	grep -qx "# flaky base: 5 runs: pass 2/5, xfail 1/5, fail 1/5, timeout 1/5" <<<"$out"
'
expect_success 'repeat: the summary keeps each run with its reason' '
	s=$tmp/r/flaky/base/summary &&
	grep -qx "runs=5" "$s" && grep -qx "pass=2" "$s" && grep -qx "timeout=1" "$s" &&
	grep -q "^run=run3 fail (# FAIL flaky \[base\]: swapstress exited 135" "$s" &&
	[ -f "$tmp/r/flaky/base/run1.ktap" ]
'
expect_success 'repeat: RESULTS.md gets the repeat table, a second label joins the row' '
	grep -q "^| flaky | pass 2/5, xfail 1/5, fail 1/5, timeout 1/5 · [0-9a-f]\{7\}+\{0,1\} 20[0-9-]* |" "$tmp/RESULTS.md" &&
	echo 0 >"$tmp/count" &&
	integration/repeat -n 1 --kernel /etc/hostname --label series \
		--results "$tmp/r" "$tmp/flaky.sh" >/dev/null 2>&1 &&
	out=$(integration/repeat --table --results "$tmp/r") &&
	grep -qx "| flaky | pass 2/5, xfail 1/5, fail 1/5, timeout 1/5 · [^|]* | timeout 1/1 · [^|]* |" <<<"$out" &&
	[ "$(grep -c "BEGIN results:repeat" "$tmp/RESULTS.md")" = 1 ]
'
# A new checkout has no results/ of earlier runs: a run into an empty
# results directory replaces its own cells and keeps the others, and a
# table written before cells carried their commit gets its section's.
expect_success 'repeat: cells of earlier runs whose summaries are gone stay' '
	sed -i -e "s/ · [^|]* |/ |/g" -e "s/^- commit: .*/- commit: abcdef123456/" \
		-e "s/^Written by \`scripts\/results\` on [0-9-]*/Written by \`scripts\/results\` on 2026-01-02/" \
		"$tmp/RESULTS.md" &&
	echo 1 >"$tmp/count" &&
	integration/repeat -n 1 --kernel /etc/hostname --label series \
		--results "$tmp/r2" "$tmp/flaky.sh" >/dev/null 2>&1 &&
	out=$(sed -n "/^| flaky /p" "$tmp/RESULTS.md") &&
	grep -qx "| flaky | pass 2/5, xfail 1/5, fail 1/5, timeout 1/5 · abcdef1 2026-01-02 | pass 1/1 · [0-9a-f]\{7\}+\{0,1\} 20[0-9-]* |" <<<"$out"
'
# -j: runs at once, and never more than J.  Each run of this stub writes
# when it started and ended (by its run directory, which integration/run
# passes as --results), sleeps, and fails only as run 2.
cat >"$tmp/slow.sh" <<EOF
#!/bin/bash
i=\$(grep -o 'run[0-9]*' <<<"\$*" | tail -n1)
date +%s.%N >"$tmp/par/\$i.start"; sleep 3; date +%s.%N >"$tmp/par/\$i.end"
echo "TAP version 13"; echo "1..1"
[ "\$i" != run2 ] || { echo "not ok 1 slow"; echo "# FAIL slow [base]: run 2"; exit 1; }
echo "ok 1 slow"
EOF
chmod +x "$tmp/slow.sh"
expect_success 'repeat -j 3: three runs at once, each counted in order' '
	rm -rf "$tmp/par" && mkdir "$tmp/par" &&
	out=$(integration/repeat -n 3 -j 3 --kernel /etc/hostname --label base \
		--results "$tmp/rj" "$tmp/slow.sh" 2>&1) &&
	grep -qx "# slow base: 3 runs: pass 2/3, fail 1/3" <<<"$out" &&
	[ "$(grep "^# run " <<<"$out" | cut -c1-15 | tr "\n" " ")" = "# run 1/3: pass # run 2/3: fail # run 3/3: pass " ] &&
	last_start=$(cat "$tmp"/par/run*.start | sort -n | tail -n1) &&
	first_end=$(cat "$tmp"/par/run*.end | sort -n | head -n1) &&
	awk -v s="$last_start" -v e="$first_end" "BEGIN { exit !(s < e) }"
'
expect_success 'repeat -j 2: the third run waits for a place' '
	rm -rf "$tmp/par" && mkdir "$tmp/par" &&
	integration/repeat -n 3 -j 2 --kernel /etc/hostname --label base \
		--results "$tmp/rj2" "$tmp/slow.sh" >/dev/null 2>&1 &&
	s3=$(cat "$tmp/par/run3.start") &&
	first_end=$(cat "$tmp/par/run1.end" "$tmp/par/run2.end" | sort -n | head -n1) &&
	awk -v s="$s3" -v e="$first_end" "BEGIN { exit !(s >= e) }"
'
expect_success 'repeat: bad input is one line and runs nothing' '
	echo 0 >"$tmp/count" &&
	for a in "-n 0" "-n" "-j 0" "-j x" "--label" "--kernel /nonexistent" "" "--label base"; do
		! o=$(integration/repeat $a --results "$tmp/r" 2>&1) || return 1
		[ "$(wc -l <<<"$o")" = 1 ] && grep -q "^swapnfs: ERROR: repeat: " <<<"$o" || { echo "$a: $o"; return 1; }
	done &&
	! o=$(integration/repeat --kernel /etc/hostname --label base "$tmp/flaky.sh" x 2>&1) &&
	grep -q "one scenario at a time" <<<"$o" &&
	[ "$(cat "$tmp/count")" = 0 ]
'
done_testing
