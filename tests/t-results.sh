#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/results writes RESULTS.md from a results directory, never by
# hand: it replaces only the section of the run it was given, shows only
# the scenarios that run selected, and says when, how and where.
# Fixture results only: no guest runs.
. "$(dirname "$0")/lib.sh"

# The run-shaping knobs scripts/test exports would show in the command.
unset SWAPNFS_STRESS_MIB SWAPNFS_STRESS_PASSES SWAPNFS_ACCEL SWAPNFS_MIN_FREE_KB \
	SWAPNFS_EXPORT_EXTRA CLIENT_MEM CLIENT_SMP SCENARIO_TIMEOUT SWAPNFS_RESULTS_MD
fx=tests/fixtures/results-md
# Fixed scenario headers: retagging a live scenario must not change this test.
export SWAPNFS_SCENARIO_DIR=$PWD/$fx/scenarios
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"
md=$tmp/RESULTS.md

expect_success 'results: --ci replaces the ci section and nothing else' '
	cp $fx/RESULTS.md $md &&
	scripts/results --out $md integrate --ci --results $fx/ci 2>$tmp/err &&
	grep -q "section ci of $md rewritten" $tmp/err &&
	! grep -q "Recorded by hand, stale" $md &&
	grep -q "Old bench figures that a CI run must not touch" $md &&
	grep -q "^Fixture: a hand-written part that the writer must keep" $md &&
	grep -q "^Kept as written" $md &&
	[ $(grep -c "^<!-- BEGIN results:ci -->" $md) = 1 ] &&
	[ $(grep -c "^<!-- END results:ci -->" $md) = 1 ]
'

sec() { sed -n "/^<!-- BEGIN results:$1 -->/,/^<!-- END results:$1 -->/p" $md; }

expect_success 'results: a 6.12 run gets a section of its own and leaves the 6.1 one alone' '
	old=$(sec ci) &&
	SWAPNFS_BASE=6.12 scripts/results --out $md integrate --ci --results $fx/ci 2>$tmp/err &&
	grep -q "section ci-6.12 of $md rewritten" $tmp/err &&
	[ "$(sec ci)" = "$old" ] &&
	out=$(sec ci-6.12) &&
	grep -qx "## CI set on 6.12" <<<"$out" &&
	grep -q "^- command: \`.*scripts/integrate --base 6.12 --ci\`" <<<"$out" &&
	SWAPNFS_BASE=6.12 scripts/results --out $md integrate --ci --results $fx/ci 2>/dev/null &&
	[ $(grep -c "^<!-- BEGIN results:ci-6.12 -->" $md) = 1 ]
'

expect_success 'results: the section names the command, machine, commit and time' '
	out=$(sec ci) &&
	grep -q "^- command: \`.*scripts/integrate --ci\`" <<<"$out" &&
	grep -q "^- machine: $(nproc) cores, .*accel .*host kernel $(uname -r)" <<<"$out" &&
	grep -q "^- commit: $(git rev-parse --short=12 HEAD)" <<<"$out" &&
	grep -q "^Written by \`scripts/results\` on $(date -u +%Y-%m-%d)" <<<"$out" &&
	grep -q "^- result files: 20[0-9-]* [0-9:]* UTC to " <<<"$out"
'

expect_success 'results: the table shows what --ci selects on each label' '
	out=$(sec ci) &&
	grep -qx "| t0400-sunrpc-nconnect-swapper | xfail (elapsed_s=36 alloc_failures=0) | pass (elapsed_s=85 mismatches=0) |" <<<"$out" &&
	grep -qx "| t0100-swap-nfs3-stress | - | pass (elapsed_s=75 pswpout=43104 pswpin=81999 mismatches=0 alloc_failures=0) |" <<<"$out" &&
	! grep -q "elapsed_s=999" <<<"$out" &&
	! grep -q t0821 <<<"$out"
'

expect_success 'results: a failure is counted and its reason quoted' '
	out=$(sec ci) &&
	grep -qx "| t0210-swap-local-stress | - | fail (elapsed_s=901) |" <<<"$out" &&
	grep -qx -- "- t0210-swap-local-stress \[series\] fail: fixture: client did not finish within 900s (hang?)" <<<"$out" &&
	grep -q "^Totals over the cells: 2 pass, 1 xfail, 1 fail, 0 skip\.$" <<<"$out"
'

expect_success 'results: a rerun replaces its section in place, not appended' '
	cp $md $tmp/before &&
	SWAPNFS_STRESS_MIB=160 scripts/results --out $md integrate --ci --results $fx/ci 2>/dev/null &&
	[ $(grep -c "^<!-- BEGIN results:ci -->" $md) = 1 ] &&
	grep -q "^- command: \`SWAPNFS_STRESS_MIB=160 scripts/integrate --ci\`" $md &&
	diff <(grep -v -e "^- command" -e "^Written by" $tmp/before) \
	     <(grep -v -e "^- command" -e "^Written by" $md)
'

expect_success 'results: --tag fault gets its own section with the fault matrix' '
	scripts/results --out $md integrate --tag fault --results tests/fixtures/matrix 2>/dev/null &&
	out=$(sec tag-fault) &&
	grep -qx "| nfsd-restart | pass | pass | fail | pass |" <<<"$out" &&
	grep -qx "| onoff-churn | - | pass | - | fail |" <<<"$out" &&
	! grep -q t0100 <<<"$out" &&
	sec ci | grep -q t0400
'

expect_success 'results: bench puts bench.txt under the command rebuilt from its header' '
	cp -r tests/fixtures/bench/ok $tmp/bench &&
	cp $fx/bench/header.txt $tmp/bench/ &&
	python3 integration/bench-stats.py --header $tmp/bench/header.txt --out $tmp/bench \
		$tmp/bench/*-rep*/*/result >/dev/null &&
	scripts/results --out $md bench --results $tmp/bench 2>/dev/null &&
	out=$(sec bench) &&
	! grep -q "Old bench figures" <<<"$out" &&
	grep -q "^- command: \`integration/bench --reps 2 --mib 192 --kernel /fixture/base/bzImage --label base --kernel /fixture/series/bzImage --label series\`" <<<"$out" &&
	grep -q "^- machine: .*, accel tcg, " <<<"$out" &&
	grep -q "^series  NFSv4.2  3     0       16.5 \[16.0-17.0\]" <<<"$out" &&
	grep -q "^kernel  NFSv4.2/NBD" <<<"$out"
'

expect_success 'results: a missing RESULTS.md is created with the section' '
	scripts/results --out $tmp/new.md integrate --ci --results $fx/ci 2>/dev/null &&
	head -n1 $tmp/new.md | grep -qx "# Results" &&
	grep -q "^<!-- END results:ci -->" $tmp/new.md
'

expect_success 'results: check tallies each topic'"'"'s TAP; a stopped check is incomplete, not a pass' '
	cp $fx/RESULTS.md $md &&
	SWAPNFS_BASE=6.12 scripts/results --out $md check --results $fx/check 2>$tmp/err &&
	grep -q "section check-6.12 of $md rewritten" $tmp/err &&
	out=$(sec check-6.12) &&
	grep -qx "## Topic checks (scripts/topic check) on 6.12" <<<"$out" &&
	grep -q "^- command: \`scripts/topic --base 6.12 check TOPIC > DIR/TOPIC.tap" <<<"$out" &&
	grep -q "^| sunrpc | 2 | 2/2 | 1/1 | 2/2 | - | 2/2 (1 whole) | pass · " <<<"$out" &&
	grep -q "^| nfs | 3 | 2/3 | 1/1 | 1/1 | - | - | incomplete (1 not ok) · " <<<"$out" &&
	scripts/results --out $md check --results $fx/check 2>/dev/null &&
	sec check | grep -q "^- command: \`scripts/topic check TOPIC" &&
	[ "$(sec check-6.12)" = "$out" ] &&
	! scripts/results --out $md check --results $fx/ci 2>$tmp/err &&
	grep -q "ERROR: results: no TOPIC.tap in" $tmp/err
'

expect_success 'results: bad input is one line and exit 1' '
	! out=$(scripts/results --out $md integrate --results $tmp/nonexistent 2>&1) &&
	[ "$out" = "swapnfs: ERROR: results: no results directory $tmp/nonexistent" ] &&
	! out=$(scripts/results --out $md bench --results $fx/ci 2>&1) &&
	grep -qx "swapnfs: ERROR: results: no bench.txt in .*" <<<"$out" &&
	! out=$(scripts/results --out $md integrate --ci --tag fault 2>&1) &&
	[ "$out" = "swapnfs: ERROR: results: --ci and --tag exclude each other" ] &&
	! out=$(scripts/results --out $md integrate --tag nosuchtag --results $fx/ci 2>&1) &&
	grep -qx "swapnfs: ERROR: results: no results of this selection in .*" <<<"$out" &&
	sed "/^<!-- END results:ci -->/d" $fx/RESULTS.md >$tmp/broken.md &&
	! out=$(scripts/results --out $tmp/broken.md integrate --ci --results $fx/ci 2>&1) &&
	grep -qx "swapnfs: ERROR: results: .*section ci has a BEGIN line without its END line.*" <<<"$out" &&
	cmp -s $tmp/broken.md <(sed "/^<!-- END results:ci -->/d" $fx/RESULTS.md) &&
	! out=$(scripts/results --out $md --bogus 2>&1) &&
	[ $(echo "$out" | wc -l) = 1 ]
'

expect_success 'results: scripts/integrate and integration/bench call the writer at their end' '
	tail -n 3 scripts/integrate | grep -q "scripts/results\" integrate --results \"\$results\"" &&
	tail -n 1 integration/bench | grep -q "scripts/results\" bench --results \"\$results\""
'

done_testing
