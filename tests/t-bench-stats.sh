#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# integration/bench-stats.py, the statistics behind integration/bench, on
# fixture result files (no guests): medians, min-max and quartiles come
# out right, the NFS/NBD and NFS/local ratios follow from the medians, and
# a failed run is listed as a failure and makes the exit status non-zero
# instead of vanishing from the figures.  Also bench's own argument checks.
. "$(dirname "$0")/lib.sh"

fx=tests/fixtures/bench
stats=integration/bench-stats.py
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"

# The row of the table for kernel $1 and backend $2, columns squeezed.
row() { grep -E "^$1 +$2 " "$tmp/$3/bench.txt" | tr -s ' '; }

expect_success 'all runs pass: exit 0, table, tsv and gnuplot files written' '
	mkdir -p $tmp/ok &&
	$stats --order base,series --out $tmp/ok $(find $fx/ok -name result | sort) >$tmp/ok.out &&
	cmp $tmp/ok.out $tmp/ok/bench.txt &&
	[ -s $tmp/ok/bench.tsv ] && [ -s $tmp/ok/bench.gp ] && [ -s $tmp/ok/bench-plot.dat ] &&
	! grep -q FAIL $tmp/ok/bench.txt
'

expect_success 'median and min-max per kernel and backend (odd run count)' '
	out=$(row base NFSv4.2 ok) &&
	[ "$out" = "base NFSv4.2 3 0 32.0 [30.0-40.0] 3125 [2500-3333] 3750 [3000-4000] 6400 [6000-8000] 3200 [3000-4000]" ] &&
	out=$(row base local ok) &&
	[ "$out" = "base local 3 0 6.0 [5.0-8.0] 16666 [12500-20000] 20000 [15000-24000] 1200 [1000-1600] 600 [500-800]" ] &&
	out=$(row series NFSv4.2 ok) &&
	grep -q "^series NFSv4.2 3 0 16.5 \[16.0-17.0\] " <<<"$out"
'

expect_success 'rows come in the --order given, backends NFSv4.2 NFSv3 NBD local' '
	out=$(sed -n "/^kernel  *backend/,/^\$/p" $tmp/ok/bench.txt | awk "NR > 1 && NF { print \$1 \"/\" \$2 }" | tr "\n" " ") &&
	[ "$out" = "base/NFSv4.2 base/NFSv3 base/NBD base/local series/NFSv4.2 series/NFSv3 series/NBD series/local " ]
'

expect_success 'quartiles in bench.tsv (inclusive method)' '
	out=$(awk -F"\t" "\$1 == \"base\" && \$2 == \"NFSv4.2\" { print \$5, \$6, \$7, \$8, \$9 }" $tmp/ok/bench.tsv) &&
	[ "$out" = "32000.0 30000.0 40000.0 31000.0 36000.0" ]
'

expect_success 'ratios NFS/NBD and NFS/local of the median elapsed time' '
	out=$(grep -A3 "^ratios of median" $tmp/ok/bench.txt | tr -s " ") &&
	grep -qx "kernel NFSv4.2/NBD NFSv3/NBD NFSv4.2/local NFSv3/local" <<<"$out" &&
	grep -qx "base 2.91 2.00 5.33 3.67" <<<"$out" &&
	grep -qx "series 1.50 2.00 2.75 3.67" <<<"$out"
'

expect_success 'second kernel relative to the first, per backend' '
	out=$(grep -A2 "^median elapsed relative to base" $tmp/ok/bench.txt | tr -s " ") &&
	grep -qx "series 0.52 1.00 1.00 1.00" <<<"$out"
'

expect_success 'plot data: one group per backend, median/min/max seconds per kernel' '
	out=$(grep "^\"NFSv4.2\"" $tmp/ok/bench-plot.dat | tr "\t" " ") &&
	[ "$out" = "\"NFSv4.2\" 32.000 30.000 40.000 16.500 16.000 17.000" ] &&
	grep -q "title .base.*title .series" <(tr -d "\n\\\\" <$tmp/ok/bench.gp)
'

expect_success 'failed runs: exit 1, counted in the table and listed with the reason' '
	mkdir -p $tmp/fail &&
	! $stats --out $tmp/fail $(find $fx/fail -name result | sort) >$tmp/fail.out &&
	out=$(row base NFSv3 fail) &&
	grep -q "^base NFSv3 2 FAIL 1 20.0 " <<<"$out" &&
	out=$(grep -A5 "^FAILED runs (4)" $tmp/fail/bench.txt) &&
	grep -q "base-rep2 NFSv3 .*status=fail: client did not finish" <<<"$out" &&
	grep -q "base-rep1 local .*client kernel panicked" <<<"$out" &&
	grep -q "base-rep2 local .*without a result file" <<<"$out"
'

expect_success 'a run with status=pass but mismatches != 0 is a failure' '
	out=$(row base NBD fail) &&
	grep -q "^base NBD 2 FAIL 1 9.0 5000 " <<<"$out" &&
	grep -q "base-rep2 NBD .*3 page(s) read back wrong" $tmp/fail/bench.txt
'

expect_success 'even run count: median is the mean of the middle two' '
	out=$(row base NFSv4.2 fail) &&
	grep -q "^base NFSv4.2 2 0 11.5 \[10.0-13.0\] " <<<"$out"
'

expect_success 'a backend whose every run failed shows - and no ratio' '
	out=$(row base local fail) &&
	[ "$out" = "base local 2 FAIL 2 - - - - -" ] &&
	out=$(grep -A2 "^ratios of median" $tmp/fail/bench.txt | tr -s " ") &&
	grep -qx "base 1.28 2.22 - -" <<<"$out" &&
	grep -q "^\"local.*(2 failed)\"	NaN	NaN	NaN" $tmp/fail/bench-plot.dat
'

expect_success 'a single failed run alone still exits non-zero' '
	! out=$($stats $fx/fail/base-rep2/t0100-swap-nfs3-stress/result) &&
	grep -q "FAIL 1" <<<"$out"
'

expect_success 'an unreadable result file is an error, not an empty table' '
	$stats $tmp/nonexistent/result >/dev/null 2>$tmp/err; [ $? = 2 ] ||
		{ cat $tmp/err; false; }
'

if command -v gnuplot >/dev/null; then
	expect_success 'the generated gnuplot script draws a PNG, also when no run passed' '
		gnuplot $tmp/fail/bench.gp && gnuplot $tmp/ok/bench.gp &&
		[ "$(head -c 4 $tmp/ok/bench.png | tail -c 3)" = PNG ] &&
		mkdir $tmp/none &&
		! $stats --out $tmp/none $fx/fail/*/t0210-swap-local-stress/result >/dev/null &&
		gnuplot $tmp/none/bench.gp && [ -s $tmp/none/bench.png ] &&
		grep -q "no run passed" $tmp/none/bench.gp
	'
else
	skip_test 'the generated gnuplot script draws a PNG, also when no run passed' 'no gnuplot (apt-get install gnuplot-nox)'
fi

expect_success 'bench: bad arguments are one clear line, before any guest starts' '
	! out=$(integration/bench --reps 0 2>&1) &&
	[ "$out" = "swapnfs: ERROR: bench: --reps wants a positive integer, got '"'"'0'"'"'" ] &&
	! out=$(integration/bench --mib 10 --ratio 2 2>&1) &&
	grep -q "^swapnfs: ERROR: bench: give --mib or --ratio, not both$" <<<"$out" &&
	! out=$(integration/bench --kernel /nonexistent/bzImage --results $tmp/r 2>&1) &&
	grep -q "^swapnfs: ERROR: bench: kernel image /nonexistent/bzImage not found$" <<<"$out" &&
	! out=$(integration/bench --kernel $stats --label a --kernel $stats --label a --results $tmp/r 2>&1) &&
	grep -q "^swapnfs: ERROR: bench: label used twice: a$" <<<"$out"
'

expect_success 'bench --report: summarises a results directory, failures exit 1' '
	cp -r $fx/ok $tmp/rep-ok && cp -r $fx/fail $tmp/rep-fail &&
	out=$(integration/bench --report --results $tmp/rep-ok --label series --label base) &&
	grep -q "^series  *NFSv4.2 .* 16.5 " <<<"$out" &&
	[ "$(grep -E "^(base|series) " $tmp/rep-ok/bench.txt | head -n1 | cut -d" " -f1)" = series ] &&
	grep -q "^# plot: $tmp/rep-ok/bench.png" <<<"$out" && [ -s $tmp/rep-ok/bench.png ] &&
	! out=$(integration/bench --report --results $tmp/rep-fail) &&
	grep -q "^FAILED runs (4)" <<<"$out" && [ -s $tmp/rep-fail/bench.png ] &&
	! out=$(integration/bench --report --results $tmp/nonexistent 2>&1) &&
	grep -q "^swapnfs: ERROR: bench: no results directory" <<<"$out"
'

expect_success 'bench --help documents the size and its cost under TCG' '
	out=$(integration/bench --help) &&
	grep -q "4 x the client" <<<"$out" && grep -q "TCG" <<<"$out" &&
	grep -q "CI never runs" <<<"$out"
'

done_testing
