#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Swap over NFSv4.2 while virtio-net's receive ring keeps running short:
# the stress finishes and every page verifies.  The debug kernel's
# fail_page_alloc fails FAIL_PERCENT % of the client's page allocations
# that cannot sleep (GFP_ATOMIC, GFP_NOWAIT; no task filter), so that
# NAPI's refills from softirq fail now and then, as they do when the host
# is loaded and memory is short, and each failure hands the ring to
# refill_work.
#
# Why it matters: refill_work() disables NAPI on the queue, refills it
# with GFP_KERNEL and enables NAPI again.  On 6.1, when that allocation
# enters direct reclaim and reclaim swaps out over NFS, the swap write
# waits (mempool, or the per-client bound on swap writes) for replies
# that only the disabled queue can receive: the worker waits for itself,
# and the mount says "server not responding" for good.  t0400 hung this
# way in v1 (3 of 6 runs, with host CPU hogs); netvm/0005 refills in a
# memalloc_noio scope with __GFP_NORETRY.  Here each failed NAPI refill
# is one more chance for the worker to meet full memory, so the odds do
# not depend on the host.  A hang is called after STALL_S seconds in
# which the stress's progress (its stage and percentage, printed every
# 5 s) has not moved; the
# client's sysrq-w then shows in its console log where refill_work
# sleeps (the reason counts its lines there; 0 means the stall is
# something else).  With netvm/0005 the console shows, in that place,
# refill_work's GFP_NOIO|__GFP_NORETRY allocation failing instead of
# waiting (figures: RESULTS.md, "netvm/0005, five runs each way").
# injected_failures counts the injected failures (zero fails the run:
# nothing was tested).
# tags: netvm fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="debug kernel, fail_page_alloc on allocations that cannot sleep, NFSv4.2 swap: virtio-net's refill never waits for swap I/O"
SCENARIO_GAP="virtio-net's refill_work allocates with NAPI off and may reclaim into swap I/O whose replies only that queue receives"
KERNEL_VARIANT=debug
SCENARIO_TIMEOUT=900
FAIL_PERCENT=${SWAPNFS_FAIL_PERCENT:-10}
[[ $FAIL_PERCENT =~ ^([1-9]|[1-9][0-9]|100)$ ]] ||
	die "t0650: SWAPNFS_FAIL_PERCENT '$FAIL_PERCENT' is not 1-100"
STALL_S=${SWAPNFS_STALL_S:-150}
[[ $STALL_S =~ ^[1-9][0-9]*$ ]] || die "t0650: SWAPNFS_STALL_S '$STALL_S' is not a number of seconds"
GUEST_VARS="FAIL_PERCENT"

client_main() {
	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile" || return 1
	fi_set fail_page_alloc "$FAIL_PERCENT" N Y || return 1
	progress_start 'echo " free=$(awk "/^MemFree/ { print \$2 }" /proc/meminfo)kB"'
	stress -p 4 -n 1
	progress_stop
	_rc=0
	fi_stop "the client's atomic allocations" fail_page_alloc || _rc=1
	report not_responding "$(dmesg | grep -c 'not responding' || true)"
	swap_off "$NFS_MNT/swapfile" || _rc=1
	return "$_rc"
}

# The stall watchdog: until the stress has reported its figures, its last
# "swapstress:" line, less the elapsed time at its end, must change at
# least every STALL_S seconds.  The line alone is not enough: a parent
# that is not itself stuck goes on printing the same percentage while
# every child waits for swap I/O (seen on 6.12).  It gives up when
# the client is gone or at SCENARIO_TIMEOUT, which _scn_wait then
# reports (it waits for host_during before it tears down).  A stall
# gets sysrq-w and sysrq-m, then the client is stopped, so that a hang
# costs STALL_S, not SCENARIO_TIMEOUT.
host_during() {
	local n last=-1 since end=$(( $(now) + SCENARIO_TIMEOUT ))
	wait_client 'swapstress: [0-9]+ procs' 300 || { echo "the stress never started"; exit 1; }
	since=$(now)
	while ! grep -aqE 'SWAPNFS-FIGURE pages_verified=|SWAPNFS-RESULT' "$OUT/client.log"; do
		[ "$(now)" -lt "$end" ] && kill -0 "$PID_CLIENT" 2>/dev/null || exit 0
		n=$(grep -a '^swapstress: ' "$OUT/client.log" | tail -n1 |
			sed -E 's/ \([0-9]+ s\)\r?$//')
		[ "$n" = "$last" ] || { last=$n; since=$(now); }
		if [ $(( $(now) - since )) -ge "$STALL_S" ]; then
			guest_sysrq client w m
			sleep 5
			n=$(sed -n '/Show Blocked State/,$p' "$OUT/client.log" |
				grep -ac 'refill_work' || true)
			echo "no stress progress for ${STALL_S}s (hang); refill_work in sysrq-w: $n line(s)"
			client_monitor quit >/dev/null 2>&1
			exit 1
		fi
		sleep 5
	done
}

run_scenario "$@"
