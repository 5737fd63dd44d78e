#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# integration/sweep runs the reserve scenario at each min_free_kbytes size
# and nconnect count (integration/repeat per cell) and writes the "sweep"
# table of RESULTS.md.  The scenario is a stub that passes only where the
# reserve is large enough for its transports (4096 KiB, or 2048 KiB with
# one transport), so the table comes out right only if every cell ran
# with its own settings.
. "$(dirname "$0")/lib.sh"
echo "TAP version 13"
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"
export SWAPNFS_RESULTS_MD=$tmp/RESULTS.md

cat >"$tmp/reserve.sh" <<'EOF'
#!/bin/bash
echo "TAP version 13"; echo "1..1"
kb=${SWAPNFS_MIN_FREE_KB:-1294} nc=${SWAPNFS_NCONNECT:-4}
echo "$kb $nc" >>"$(dirname "$0")/calls"
if [ "$kb" -ge 4096 ] || { [ "$kb" -ge 2048 ] && [ "$nc" = 1 ]; }; then
	echo "ok 1 reserve"; exit 0
fi
echo "not ok 1 reserve"; echo "# FAIL reserve [base]: 3 allocations entitled to the memalloc reserves failed: the reserve ran dry"; exit 1
EOF
chmod +x "$tmp/reserve.sh"

expect_success 'sweep: every cell runs with its size and nconnect, n times' '
	out=$(integration/sweep --kernel /etc/hostname --label base -n 2 -j 2 \
		--results "$tmp/s" "$tmp/reserve.sh" 2>&1) &&
	[ "$(wc -l <"$tmp/calls")" = 12 ] &&
	[ "$(sort -u "$tmp/calls" | tr "\n" ,)" = "1294 1,1294 4,2048 1,2048 4,4096 1,4096 4," ] &&
	grep -qx "# sweep base min_free_kbytes=2048 nconnect=1: 2 runs: pass 2/2" <<<"$out" &&
	grep -qx "# sweep base min_free_kbytes=2048 nconnect=4: 2 runs: fail 2/2" <<<"$out"
'
expect_success 'sweep: RESULTS.md gets one row per size, one column per label and nconnect' '
	grep -q "^| min_free_kbytes | base nconnect=1 | base nconnect=4 |$" "$tmp/RESULTS.md" &&
	grep -q "^| default | held 0/2, 2 dry (-j 2) · [^|]* | held 0/2, 2 dry (-j 2) · [^|]* |$" "$tmp/RESULTS.md" &&
	grep -q "^| 2048 | held 2/2 (-j 2) · [^|]* | held 0/2, 2 dry (-j 2) · [^|]* |$" "$tmp/RESULTS.md" &&
	grep -q "^| 4096 | held 2/2 (-j 2) · [^|]* | held 2/2 (-j 2) · [^|]* |$" "$tmp/RESULTS.md" &&
	! grep -q "results:repeat" "$tmp/RESULTS.md"
'
expect_success 'sweep: a later label joins the table, earlier cells stay' '
	integration/sweep --kernel /etc/hostname --label series --sizes default \
		--nconnect 4 --results "$tmp/s2" "$tmp/reserve.sh" >/dev/null 2>&1 &&
	grep -q "^| min_free_kbytes | base nconnect=1 | base nconnect=4 | series nconnect=4 |$" "$tmp/RESULTS.md" &&
	grep -q "^| default | held 0/2, 2 dry (-j 2) · [^|]* | held 0/2, 2 dry (-j 2) · [^|]* | held 0/1, 1 dry (-j 1) · [^|]* |$" "$tmp/RESULTS.md" &&
	grep -q "^| 4096 | held 2/2 (-j 2) · [^|]* | held 2/2 (-j 2) · [^|]* | - |$" "$tmp/RESULTS.md"
'
expect_success 'sweep: bad input is one line and runs nothing' '
	rm -f "$tmp/calls" &&
	for a in "--sizes 10,x" "--sizes ," "--nconnect 0" "--nconnect 17" "-n 0" "-j -1" "--label ../x" "--bogus"; do
		! o=$(integration/sweep --kernel /etc/hostname --label base $a "$tmp/reserve.sh" 2>&1) || return 1
		[ "$(wc -l <<<"$o")" = 1 ] && grep -q "^swapnfs: ERROR: sweep: " <<<"$o" || { echo "# $a: $o"; return 1; }
	done &&
	! o=$(integration/sweep --label base "$tmp/reserve.sh" 2>&1) &&
	grep -qx "swapnfs: ERROR: sweep: --kernel BZIMAGE is needed (sweep never builds one)" <<<"$o" &&
	[ ! -e "$tmp/calls" ]
'
expect_success 'sweep: a cell that gets no verdict says why and fails the sweep' '
	! out=$(integration/sweep --kernel /etc/hostname --label base --sizes 4096 \
		--nconnect 1 --results "$tmp/s3" "$tmp/no-such-scenario.sh" 2>&1) &&
	grep -q "^# sweep base min_free_kbytes=4096 nconnect=1: no verdict: swapnfs: ERROR: repeat: no scenario" <<<"$out"
'
done_testing
