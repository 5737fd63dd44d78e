#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Swap over NFSv4.2 with nconnect=4 at the default min_free_kbytes (about
# 1.3 MiB of memalloc reserve in this 128 MiB client): the stress finishes,
# every page verifies, and no allocation entitled to the reserves
# (__GFP_MEMALLOC) fails.  An open gap on base and series.
#
# Why it matters: every transport of the switch is a swapper, so each
# socket's swap-out (rpc buffers, request slots, skb heads) is paid from
# the same small reserve, and nothing bounds what the four of them take.
# Twice, in full CI runs of t0400 before it raised min_free_kbytes, the
# reserve ran dry 18 s into the stress: GFP_ATOMIC|__GFP_MEMALLOC skb
# allocations failed, virtio-net could not refill its receive ring
# (skb_page_frag_refill from try_fill_recv, GFP_ATOMIC), so neither the
# replies nor the ACKs that would free the in-flight writes came in, and
# the mount said "server not responding" until the run was killed.
# On this machine t0400's settings hung in 3 of 6 runs with two CPU hogs
# on the host (never on an idle host), and sysrq-w showed virtio-net's
# refill_work in direct reclaim, waiting for swap writes; netvm/0005 is
# the fix.  This scenario raises the odds: more processes, the client
# paused while memory first runs out, and HOST_HOGS busy loops on the
# host for the whole stress (SWAPNFS_HOST_HOGS, default 2; 0 for none).
# Figures: allocations entitled to the reserves that failed, failed
# receive-ring refills and "not responding" messages.
# tags: netvm
. "$(dirname "$0")/lib.sh"
SCENARIO_GAP="nothing bounds how much of the memalloc reserve swap-out over several transports takes; rx refill then starves"
SCENARIO_TIMEOUT=600
STRESS_MIB=${SWAPNFS_STRESS_MIB:-192}
# Sizing runs (integration/sweep) set SWAPNFS_MIN_FREE_KB (unset: the
# guest's default) and SWAPNFS_NCONNECT (default 4): how much reserve
# how many swap transports need.
MIN_FREE_KB=${SWAPNFS_MIN_FREE_KB:-}
NCONNECT=${SWAPNFS_NCONNECT:-4}
[[ $NCONNECT =~ ^([1-9]|1[0-6])$ ]] ||
	die "t0620: SWAPNFS_NCONNECT '$NCONNECT' is not 1-16 (nconnect's range)"
[ -z "$MIN_FREE_KB" ] || [[ $MIN_FREE_KB =~ ^[1-9][0-9]*$ ]] ||
	die "t0620: SWAPNFS_MIN_FREE_KB '$MIN_FREE_KB' is not a number of KiB"
GUEST_VARS="MIN_FREE_KB NCONNECT"
SCENARIO_DESC="NFSv4.2 nconnect=$NCONNECT at ${MIN_FREE_KB:-default} min_free_kbytes: no memalloc failure, no stall"

client_main() {
	[ -z "$MIN_FREE_KB" ] || echo "$MIN_FREE_KB" >/proc/sys/vm/min_free_kbytes
	report min_free_kbytes "$(cat /proc/sys/vm/min_free_kbytes)"
	nfs_mount "vers=4.2,proto=tcp,hard,nconnect=$NCONNECT"
	report nconnect "$NCONNECT"
	swap_on "$NFS_MNT/swapfile"
	progress_start 'echo " free=$(awk "/^MemFree/ { print \$2 }" /proc/meminfo)kB"'
	stress -p 4 -n 2
	progress_stop
	swap_off "$NFS_MNT/swapfile"
	_m=$(dmesg | grep -Ec 'page allocation failure:.*__GFP_MEMALLOC|gfp=.*__GFP_MEMALLOC' || true)
	_r=$(dmesg | grep -c 'try_fill_recv' || true)
	_s=$(dmesg | grep -c 'not responding' || true)
	report memalloc_failures "$_m"
	report rx_refill_failures "$_r"
	report not_responding "$_s"
	[ "$_m" -eq 0 ] || fail "$_m allocations entitled to the memalloc reserves failed: the reserve ran dry"
	return 0
}

# The host stalls seen in CI are replaced by reproducible ones: the guest
# named by SWAPNFS_PAUSE_GUEST is paused (QEMU "stop") PAUSES times for
# PAUSE_S seconds while the stress starts, when memory first runs out.
PAUSE_GUEST=${SWAPNFS_PAUSE_GUEST:-client}
PAUSES=${SWAPNFS_PAUSES:-20}
PAUSE_S=${SWAPNFS_PAUSE_S:-0.5}
HOST_HOGS=${SWAPNFS_HOST_HOGS:-2}
host_during() {
	local hogs=() i
	wait_client 'swapstress: [0-9]+ procs' 300 || { echo "the stress never started"; exit 1; }
	# The hogs end by themselves at the scenario's timeout, so that a
	# killed run cannot leave them spinning on the host.
	for i in $(seq "$HOST_HOGS"); do
		timeout "$SCENARIO_TIMEOUT" sh -c 'while :; do :; done' &
		hogs+=($!)
	done
	trap '[ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null' EXIT
	for i in $(seq "$PAUSES"); do
		"${PAUSE_GUEST}_monitor" stop >/dev/null
		sleep "$PAUSE_S"
		"${PAUSE_GUEST}_monitor" cont >/dev/null
		sleep "$PAUSE_S"
	done
	echo "$PAUSE_GUEST paused $PAUSES times for ${PAUSE_S}s, $HOST_HOGS CPU hogs on the host"
	[ "$HOST_HOGS" -eq 0 ] || wait_client 'SWAPNFS-RESULT' >/dev/null
	return 0
}

run_scenario "$@"
