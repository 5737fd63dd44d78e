#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Allocation failures injected into the NFSv4 state manager while it
# recovers from an nfsd restart during swap (debug kernel with
# failslab and fail_page_alloc; task filter: only the manager thread
# "<server>-manager" has make-it-fail, every allocation of it fails with
# probability FAIL_PERCENT, sleeping ones included).  The client must
# recover: no swap I/O fails for good, no process is killed, every page
# of the stress verifies, swapoff reads every page back.
#
# Why it matters: an empty memalloc reserve makes the manager's
# allocations fail.  On 6.1, -ENOMEM while reclaiming an OPEN marks the
# open state failed (nfs4_reclaim_open_state()), after which every swap
# I/O on the file fails: SIGBUS for the owners of its pages, and a
# swapoff that cannot read them back.  The nfs/ series retries instead.
# The figure injected_failures counts the failures that fired; zero means
# the scenario tested nothing, and it fails.  swapoff opens the swap file:
# if an injected failure dropped the RECLAIM_COMPLETE (fixed by nfs/0006,
# shown by t0580), that open waits forever (1 of 4 runs before 0006).
# The injection stops before swapoff.
# tags: nfs fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="debug kernel, failslab+fail_page_alloc in the NFSv4 state manager during an nfsd restart in swap: no failed state, no SIGBUS, every page back"
SCENARIO_GAP="6.1 marks an open state failed when its reclaim gets -ENOMEM; every later swap I/O on the file fails"
KERNEL_VARIANT=debug
STRESS_MIB=192
SCENARIO_TIMEOUT=2400
FAIL_PERCENT=${SWAPNFS_FAIL_PERCENT:-30}
GUEST_VARS=FAIL_PERCENT

client_main() {
	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile" || return 1
	manager_fail_start "$FAIL_PERCENT" || return 1
	_rc=0
	stress -n 1 || _rc=$?
	manager_fail_stop || _rc=1
	_we=$(dmesg | grep -c 'Write error' || :)
	report write_errors "$_we"
	dmesg | grep -E 'NFS: state manager|nfs4_reclaim_open_state|unhandled error' |
		tail -n 5 | while read -r _l; do info "kernel: $_l"; done
	if [ "$_rc" -eq 0 ]; then
		swap_off "$NFS_MNT/swapfile" || _rc=1
		[ "$_rc" -eq 0 ] && info "swapoff read every page back"
	fi
	return "$_rc"
}

host_during() {
	# The client may be done already (on 6.1 a soft swap-in can fail
	# before any fault): then there is nothing to strike.
	wait_client 'seq write\+verify: ([6-9][0-9]|100)%|random verify|final verify|SWAPNFS-RESULT' 1200 ||
		{ echo "stress never got deep into swap"; exit 1; }
	grep -aq 'SWAPNFS-RESULT' "$OUT/client.log" && { echo "client finished before the fault"; exit 0; }
	server_ctl 'rpc.nfsd 0 && sleep 2 && rpc.nfsd --grace-time 15 --lease-time 15 8' ||
		{ echo "nfsd restart in the server guest failed"; exit 1; }
	echo "nfsd restarted at $(date +%T)"
}

run_scenario "$@"
