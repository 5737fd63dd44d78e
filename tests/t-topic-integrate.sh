#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/integrate: fixture topics merged in list order, a topic without
# patches skipped, a deliberate conflict named, and the base/series table
# printed from result files.
. "$(dirname "$0")/lib.sh"
. "$SWAPNFS_TOP/tests/fixtures/topic-env.sh"
echo "TAP version 13"
expect_success 'the table: scenario x {base, series} with status and figures' '
	out=$(scripts/integrate --table --results "$SWAPNFS_TOP/tests/fixtures/results") &&
	printf "%s\n" "$out" &&
	grep -Eq "^t0100-fixture-stress +\| xfail \(elapsed_s=61 mismatches=3\) +\| pass \(elapsed_s=42 pswpout=70000 mismatches=0\)" <<<"$out" &&
	grep -Eq "^t0200-fixture-flat +\| fail \(elapsed_s=9\) +\| -" <<<"$out"
'
expect_success 'the fault matrix: fault x protocol x {base, series}, reasons below' '
	out=$(scripts/integrate --matrix --results "$SWAPNFS_TOP/tests/fixtures/matrix") &&
	printf "%s\n" "$out" &&
	grep -Eq "^nfsd-restart +\| pass +\| pass +\| fail +\| pass *$" <<<"$out" &&
	grep -Eq "^onoff-churn +\| - +\| pass +\| - +\| fail *$" <<<"$out" &&
	! grep -q "stress" <<<"$(grep -v "^  " <<<"$out")" &&
	grep -qx "  t0801-fault-nfsd-restart-nfs42 \[base\]: client did not finish within 1200s (hang?)" <<<"$out" &&
	grep -qx "  t0120-swap-nfs42-onoff-churn \[series\]: swapstress exited 1 during swapon/swapoff churn" <<<"$out"
'
expect_success 'integrate: --ci and --tag together are refused in one line' '
	! out=$(scripts/integrate --ci --tag fault 2>&1) &&
	[ "$out" = "swapnfs: ERROR: integrate: --ci and --tag exclude each other" ]
'
expect_success 'integrate --base 6.12 reads and writes results/6.12/ by default' '
	! out=$(SWAPNFS_RESULTS= scripts/integrate --base 6.12 --table 2>&1) &&
	[ "$out" = "swapnfs: ERROR: integrate: no results in $SWAPNFS_TOP/results/6.12/base or $SWAPNFS_TOP/results/6.12/series" ] &&
	! out=$(scripts/integrate --base 2>&1) &&
	[ "$out" = "swapnfs: ERROR: integrate: --base needs a value (6.1 or 6.12)" ]
'
if ! topic_env_setup; then
	skip_test 'integrate merges' 'no kernel tree (scripts/kernel-tree)'
	done_testing; exit $?
fi
when_finished topic_env_reset
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"
L=tests/fixtures/topics
expect_success 'topics merge in list order; one without patches is skipped' '
	printf "%s\n" "# fixture list" $L/fx-sunrpc $L/fx-empty $L/fx-mm $L/fx-net >"$tmp/list" &&
	out=$(scripts/integrate --merge-only --topics "$tmp/list" --results "$tmp/r") &&
	printf "%s\n" "$out" &&
	grep -q "^skip fx-empty: no patches" <<<"$out" &&
	grep -q "^integration: 3 topics merged on v6.1.192: fx-sunrpc fx-mm fx-net" <<<"$out" &&
	[ "$(git -C "$KTREE" log --merges --format=%s v6.1.192..integration)" = "$(printf "%s\n" "Merge topic '\''fx-net'\''" "Merge topic '\''fx-mm'\''" "Merge topic '\''fx-sunrpc'\''")" ] &&
	git -C "$KTREE" diff --quiet topic/fx-mm integration -- net/sunrpc mm &&
	git -C "$KTREE" diff --quiet topic/fx-net integration -- net/core &&
	grep -q "^merged fx-net" "$tmp/r/integrate/merge.log"
'
expect_success 'a conflict names both topics and the file, and stops' '
	printf "%s\n" $L/fx-sunrpc $L/fx-conflict $L/fx-net >"$tmp/list2" &&
	! out=$(scripts/integrate --merge-only --topics "$tmp/list2" --results "$tmp/r" 2>&1) &&
	printf "%s\n" "$out" &&
	grep -q "swapnfs: ERROR: integrate: topics fx-sunrpc and fx-conflict conflict in net/sunrpc/xprt.c" <<<"$out" &&
	! grep -q "merged fx-net" "$tmp/r/integrate/merge.log" &&
	git -C "$SWAPNFS_CACHE/wt/integration" diff --quiet HEAD
'
# --base 6.12 with the 6.1 scratch repository standing in for 6.12 (see
# t-topic-roundtrip.sh): what is tested is which series is merged, where.
as612() { SWAPNFS_BASE=6.12 LINUX_SOURCE_TARBALL=/usr/src/linux-source-6.1.tar.xz LINUX_SOURCE_PKG=linux-source-6.1 "$@"; }
expect_success 'integrate --base 6.12 refuses, in one line and before writing, a topic without a 6.12 series' '
	printf "%s\n" $L/fx-base $L/fx-sunrpc >"$tmp/list612" &&
	! out=$(as612 scripts/integrate --base 6.12 --merge-only --topics "$tmp/list612" --results "$tmp/r612" 2>&1) &&
	[ "$out" = "swapnfs: ERROR: integrate: topic fx-sunrpc has no 6.12 series (no patches in $SWAPNFS_TOP/$L/fx-sunrpc/6.12/): port it first, or leave it out with --topics FILE" ] &&
	[ ! -e "$tmp/r612" ]
'
expect_success 'integrate --base 6.12 merges the 6.12 series, in the 6.12 worktree' '
	printf "%s\n" $L/fx-base >"$tmp/list612b" &&
	git -C "$SWAPNFS_CACHE/wt/integration" checkout -q --detach &&
	h61=$(git -C "$SWAPNFS_CACHE/wt/integration" rev-parse HEAD) &&
	out=$(as612 scripts/integrate --base 6.12 --merge-only --topics "$tmp/list612b" --results "$tmp/r612") &&
	grep -q "^integration: 1 topics merged on v6.1.192: fx-base" <<<"$out" &&
	[ "$(git -C "$KTREE" rev-list --count v6.1.192..topic/fx-base)" = 2 ] &&
	[ "$(git -C "$SWAPNFS_CACHE/wt-6.12/integration" rev-parse HEAD)" = "$(git -C "$KTREE" rev-parse integration)" ] &&
	[ "$(git -C "$SWAPNFS_CACHE/wt/integration" rev-parse HEAD)" = "$h61" ]
'
expect_success 'a topic whose patch does not apply stops the merge, naming it' '
	printf "%s\n" $L/fx-sunrpc $L/fx-noapply >"$tmp/list3" &&
	! out=$(scripts/integrate --merge-only --topics "$tmp/list3" --results "$tmp/r" 2>&1) &&
	grep -q "integrate: topic fx-noapply: .*0001-SUNRPC-a-patch-whose-context-is-not-in-6.1.patch does not apply" <<<"$out"
'
done_testing
