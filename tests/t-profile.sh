#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The profile knob without guests: integration/profile-stats.py sums the
# ftrace profiler's per-CPU tables (trace_stat/function*) of a fixture and
# ranks them by time and by hits, per swapped page; --compare puts NFS and
# NBD side by side; integration/bench --profile and SWAPNFS_PROFILE parse
# and refuse bad input; scripts/results writes the profile section.
. "$(dirname "$0")/lib.sh"

fx=tests/fixtures/profile
st=integration/profile-stats.py
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"

# Row N of the table under the heading $2 in output $1, columns squeezed.
row() { sed -n "/^$2/,/^\$/p" <<<"$1" | sed -n "$(( $3 + 2 ))p" | tr -s ' '; }

expect_success 'console log: top by time, summed over both CPUs, per swapped page' '
	out=$($st --top 4 --label nfs $fx/client-nfs.log) &&
	grep -q "^# profile nfs: 6 functions on 2 CPU table(s), mode 1$" <<<"$out" &&
	grep -q "^# window: pswpout 600 pswpin 400 (1000 pages), 12.50 s" <<<"$out" &&
	[ "$(row "$out" "top 4 by total time" 1)" = "1 xs_tcp_send_request.isra.0 50 12345678.0 0.05 12345.68" ] &&
	[ "$(row "$out" "top 4 by total time" 2)" = "2 tcp_sendmsg 300 53000.5 0.30 53.00" ] &&
	[ "$(row "$out" "top 4 by total time" 3)" = "3 nfs_swap_rw 1000 50000.0 1.00 50.00" ] &&
	[ "$(row "$out" "top 4 by total time" 4)" = "4 rpc_run_task 500 32000.5 0.50 32.00" ] &&
	[ -z "$(row "$out" "top 4 by total time" 5)" ]
'

expect_success 'top by hit count, and the kernel CPU per swapped page from the window' '
	out=$($st --top 4 --label nfs $fx/client-nfs.log) &&
	[ "$(row "$out" "top 4 by hit count" 1)" = "1 kfree 11000 1000.0 11.00 1.00" ] &&
	[ "$(row "$out" "top 4 by hit count" 2)" = "2 xdr_encode_opaque 4000 3000.0 4.00 3.00" ] &&
	grep -q "^# kernel CPU per swapped page: 5000.0 us" <<<"$out"
'

expect_success 'raw trace_stat files give the same ranking; --pages sets the divisor' '
	out=$($st --top 2 --pages 500 $fx/function0 $fx/function1) &&
	[ "$(row "$out" "top 2 by total time" 2)" = "2 tcp_sendmsg 300 53000.5 0.60 106.00" ] &&
	[ "$(row "$out" "top 2 by hit count" 1)" = "1 kfree 11000 1000.0 22.00 2.00" ]
'

expect_success '--compare: cost points per page side by side, clones folded, ratio first/second' '
	out=$($st --compare --top 3 nfs=$fx/client-nfs.log nbd=$fx/client-nbd.log | tr -s " ") &&
	grep -qx "transmit tcp_sendmsg 53.00 40.00 1.33" <<<"$out" &&
	grep -qx "transmit xs_tcp_send_request 12345.68 - -" <<<"$out" &&
	grep -qx "NBD nbd_queue_rq - 25.00 -" <<<"$out" &&
	grep -qx "allocator kfree 1.00 0.50 2.00" <<<"$out" &&
	! grep -q "isra" <<<"$out"
'

expect_success 'bad input: one clear line and exit 1' '
	! out=$($st --top 0 $fx/function0 2>&1) &&
	[ "$out" = "swapnfs: ERROR: profile-stats: --top wants a positive integer, got '"'"'0'"'"'" ] &&
	! out=$($st $tmp/nonexistent 2>&1) &&
	grep -q "^swapnfs: ERROR: profile-stats: cannot read $tmp/nonexistent" <<<"$out" &&
	printf "SWAPNFS-PROF function0   kfree 10 1.000 us 0.1 us 0.0 us\n" >$tmp/cut.log &&
	! out=$($st $tmp/cut.log 2>&1) &&
	grep -q "incomplete (no SWAPNFS-PROF-END" <<<"$out" &&
	printf "not a profile line\n" >$tmp/junk &&
	! out=$($st $tmp/junk 2>&1) &&
	grep -q "not a trace_stat line" <<<"$out" &&
	! out=$($st --compare $fx/client-nfs.log 2>&1) &&
	grep -q "wants NAME=INPUT" <<<"$out"
'

expect_success 'bench --profile parses: one rep, no --report, kernels checked before guests' '
	! out=$(integration/bench --profile --reps 3 2>&1) &&
	[ "$out" = "swapnfs: ERROR: bench: --profile runs one rep per kernel (leave out --reps)" ] &&
	! out=$(integration/bench --profile --kernel /nonexistent/bzImage --results $tmp/r 2>&1) &&
	grep -q "^swapnfs: ERROR: bench: kernel image /nonexistent/bzImage not found$" <<<"$out" &&
	integration/bench --help | grep -q "^--profile: where the time goes"
'

expect_success 'bench --profile --report: profile files per backend and the comparison in bench.txt' '
	for s in t0110-swap-nfs42-stress:nfs t0200-swap-nbd-stress:nbd; do
		d=$tmp/pr/series-rep1/${s%%:*} &&
		mkdir -p $d &&
		sed "s/^label=base/label=series/" tests/fixtures/bench/ok/base-rep1/${s%%:*}/result >$d/result &&
		cp $fx/client-${s##*:}.log $d/client.log || return 1
	done &&
	out=$(integration/bench --profile --report --results $tmp/pr) &&
	grep -q "^# profile series NFSv4.2: 6 functions on 2 CPU" $tmp/pr/profile-nfs42.txt &&
	grep -q "^# profile series NBD: 3 functions on 1 CPU" $tmp/pr/profile-nbd.txt &&
	grep -q "^nfs42: kernel CPU per swapped page: 5000.0 us" $tmp/pr/profile-compare.txt &&
	grep -q "^nbd: kernel CPU per swapped page: 3000.0 us" $tmp/pr/profile-compare.txt &&
	grep -q "^transmit  *tcp_sendmsg  *53.00  *40.00  *1.33$" $tmp/pr/profile-compare.txt &&
	grep -q "^series  *NFSv4.2 " $tmp/pr/bench.txt &&
	tail -n "$(grep -c "" $tmp/pr/profile-compare.txt)" $tmp/pr/bench.txt | cmp - $tmp/pr/profile-compare.txt &&
	grep -q "^profile of series" <<<"$out"
'

expect_success 'SWAPNFS_PROFILE takes 1 or all; a scenario refuses anything else' '
	! out=$(SWAPNFS_PROFILE=yes integration/t0110-swap-nfs42-stress.sh --kernel /nonexistent 2>&1) &&
	[ "$out" = "swapnfs: ERROR: SWAPNFS_PROFILE wants 1 or all, got '"'"'yes'"'"'" ]
'

expect_success 'scripts/results profile: its own section, the bench section untouched' '
	mkdir -p $tmp/res/series-rep1/t0110-swap-nfs42-stress &&
	touch $tmp/res/series-rep1/t0110-swap-nfs42-stress/result &&
	printf "# swapnfs bench X, 1 rep(s), 192 MiB per run\n# kernel series: /k/bzImage (6.1)\n" >$tmp/res/header.txt &&
	printf "table\n\nprofile of series\n" >$tmp/res/bench.txt &&
	printf "# R\n\n<!-- BEGIN results:bench -->\nbench table\n<!-- END results:bench -->\n" >$tmp/R.md &&
	scripts/results --out $tmp/R.md profile --results $tmp/res 2>/dev/null &&
	grep -q "^bench table$" $tmp/R.md &&
	sed -n "/BEGIN results:profile/,/END results:profile/p" $tmp/R.md >$tmp/sec &&
	grep -q "^## Profile (integration/bench --profile)$" $tmp/sec &&
	grep -q "integration/bench --profile --mib 192 --kernel /k/bzImage --label series" $tmp/sec &&
	grep -q "^profile of series$" $tmp/sec
'

# The guest side under the guest's shell, against a fake tracefs and /proc:
# what it enables and filters, and the console lines profile-stats reads.
gsh=sh; command -v busybox >/dev/null && gsh="busybox sh"
fake_guest() {
	mkdir -p $tmp/g/t/options $tmp/g/t/trace_stat $tmp/g/p &&
	: >$tmp/g/t/function_profile_enabled && : >$tmp/g/t/set_ftrace_filter &&
	echo 1 >$tmp/g/t/options/sleep-time && echo 0 >$tmp/g/t/options/graph-time &&
	cp $fx/function0 $fx/function1 $tmp/g/t/trace_stat/ &&
	printf "processor : 0\nprocessor : 1\n" >$tmp/g/p/cpuinfo &&
	printf "pswpin 100\npswpout 200\n" >$tmp/g/p/vmstat &&
	printf "cpu  10 1 20 300 4 5 6 0 0 0\ncpu0 1 1 1 1 1 1 1\n" >$tmp/g/p/stat &&
	echo "50.00 90.00" >$tmp/g/p/uptime
}
# Between start and stop the "stress" moves vmstat, stat and uptime.
guest_run() {
	PROF_T=$tmp/g/t PROF_PROC=$tmp/g/p MODE=$1 $gsh -c "
		cmdline_arg() { echo \$MODE; }
		fail() { echo \"SWAPNFS-FAIL \$*\"; }
		info() { echo \"SWAPNFS-INFO \$*\"; }
		. integration/guest/profile.sh
		profile_start || exit 1
		printf \"pswpin 500\\npswpout 1000\\n\" >$tmp/g/p/vmstat
		printf \"cpu  110 2 520 400 24 55 106 0 0 0\\n\" >$tmp/g/p/stat
		echo \"62.50 95.00\" >$tmp/g/p/uptime
		profile_stop"
}

expect_success 'guest profile.sh: filter, options, enable, window figures and the dump' '
	fake_guest && guest_run 1 >$tmp/g/console &&
	[ "$(cat $tmp/g/t/function_profile_enabled)" = 0 ] &&
	[ "$(cat $tmp/g/t/options/sleep-time)" = 0 ] && [ "$(cat $tmp/g/t/options/graph-time)" = 1 ] &&
	grep -qx "nfs_\*" $tmp/g/t/set_ftrace_filter && grep -qx "nbd_\*" $tmp/g/t/set_ftrace_filter &&
	grep -q "^SWAPNFS-PROF-META mode=1 filtered_functions=[1-9][0-9]* sleep_time=0 graph_time=1 cpus=2$" $tmp/g/console &&
	grep -qx "SWAPNFS-PROF-VMSTAT pswpout=800 pswpin=400 wall_s=12.50 user_ticks=101 sys_ticks=650 idle_ticks=100 iowait_ticks=20 hz=100" $tmp/g/console &&
	out=$($st --top 1 $tmp/g/console) &&
	grep -q "^# window: pswpout 800 pswpin 400 (1200 pages), 12.50 s" <<<"$out" &&
	[ "$(row "$out" "top 1 by total time" 1)" = "1 xs_tcp_send_request.isra.0 50 12345678.0 0.04 10288.07" ]
'

expect_success 'guest profile.sh: mode all sets no filter' '
	fake_guest && echo stale >$tmp/g/t/set_ftrace_filter && guest_run all >$tmp/g/console &&
	[ ! -s $tmp/g/t/set_ftrace_filter ] &&
	grep -q "^SWAPNFS-PROF-META mode=all filtered_functions=0 " $tmp/g/console &&
	grep -q "^SWAPNFS-PROF-END" $tmp/g/console
'

done_testing
