#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Session trunking discovery while swapping, on the debug kernel
# (lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP): no "sleeping function called
# from invalid context", no "suspicious RCU usage", no lockdep report,
# and every page of the stress verified.
#
# The path: the server has a second address (192.0.2.11) and exports
# /export with replicas=/export@192.0.2.11, so its fs_locations name the
# same file system behind the second address.  While the stress swaps to
# a file on the first mount, a second mount with "trunkdiscovery" makes
# nfs4_discover_trunking() test that location: nfs4_test_session_trunk()
# sends EXCHANGE_ID over a new transport, sees the same server, and adds
# the transport to the swapping client's switch with
# rpc_clnt_xprt_switch_add_xprt() (on 6.1 inside rcu_read_lock()).  The
# trunk is then taken offline and removed through sysfs, which removes
# it from the switch in the RPC state machine (xprt_delete_locked(),
# call_connect_status()).
#
# The kernel's own reports are what this scenario checks (the host fails
# it on any of them); where the kernel shows swapper= in xprt_info, the
# added transport must say 1 while swap is on (t0420 checks the counts
# in detail).
#
# On the plain 6.1.192 base this fails on its own: the discovered trunk
# is added inside rcu_read_lock(), and the add allocates its sysfs
# directory with GFP_KERNEL ("suspicious RCU usage: Illegal context
# switch in RCU read-side critical section" and "BUG: sleeping function
# called from invalid context" from rpc_sysfs_xprt_setup() <-
# rpc_clnt_xprt_switch_add_xprt() <- nfs4_test_session_trunk()).  v1 of
# the sunrpc series took a mutex at the same place.
#
# Before sunrpc/0006, and not what sunrpc/0004 fixes: the write of
# "offline" could block in rpc_sysfs_xprt_state_change(), waiting for
# the trunk's XPRT_LOCKED while swap traffic used it (plain base 1/5,
# series without 0006 2/5).  A transmit released the bit without a
# wakeup, the lost wakeup that t0440 shows alone; with 0006 the write
# returned in 5/5 runs (at 2/5 before, 0/5 by chance is about 8%: a
# sign, not a proof).  The write stays bounded (xprt_state_write): after
# 120 s the scenario fails with that reason and a sysrq-w dump of the
# blocked tasks, instead of sitting out its timeout.
# tags: sunrpc debug
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="debug kernel: trunking discovery adds and removes a transport while swapping, no RCU/sleep report"
KERNEL_VARIANT=debug
SCENARIO_GAP="6.1 adds a discovered trunk inside rcu_read_lock() and sleeps there"
EXPORT_EXTRA="replicas=/export@192.0.2.11"
SCENARIO_TIMEOUT=1200

server_main() {
	ip addr add 192.0.2.11/24 dev eth0
}

client_main() {
	SECOND_IP=192.0.2.11
	# trunk_dir: the sysfs directory of the transport to SECOND_IP
	trunk_dir() {
		for _d in /sys/kernel/sunrpc/xprt-switches/switch-*/xprt-*; do
			[ "$(cat "$_d/dstaddr" 2>/dev/null)" = "$SECOND_IP" ] &&
				{ echo "$_d"; return 0; }
		done
		return 1
	}
	touch_xprts() {
		sync
		echo 3 >/proc/sys/vm/drop_caches
		dd if="$NFS_MNT/nbd-swap" of=/dev/null bs=64k count=32 2>/dev/null
	}

	nfs_mount vers=4.2,proto=tcp,hard,max_connect=2
	swap_on "$NFS_MNT/swapfile"
	trunk_dir >/dev/null &&
		{ fail "a transport to $SECOND_IP exists before discovery"; return 1; }

	stress -r 1.25 -n 1 &
	_spid=$!
	# Discovery while pages are going out to swap.
	wait_for 120 sh -c '[ "$(sed -n "s/^pswpout //p" /proc/vmstat)" -gt 1000 ]' ||
		info "stress has not swapped out 1000 pages yet; discovering anyway"
	mkdir -p /mnt/disc
	if ! mount -t nfs -o "vers=4.2,proto=tcp,hard,trunkdiscovery,addr=$SERVER_IP,clientaddr=$CLIENT_IP" \
		"$SERVER_IP:/export" /mnt/disc; then
		fail "mount with trunkdiscovery failed"
		wait "$_spid"
		return 1
	fi
	if ! _td=$(trunk_dir); then
		sysfs_xprt_dump
		wait "$_spid"
		skip "no transport to $SECOND_IP joined a switch: trunking discovery did not happen"
		return 0
	fi
	info "trunking discovery added $_td while swapping"
	report trunk_added 1
	touch_xprts
	_sw=$(sed -n 's/^swapper=//p' "$_td/xprt_info")
	if [ -n "$_sw" ]; then
		report swapper_discovered "$_sw"
		[ "$_sw" = 1 ] ||
			fail "discovered transport says swapper=$_sw while swap is on, want 1"
	else
		info "this kernel shows no swapper= in xprt_info"
	fi

	# Take the trunk away while the stress still runs.  The write is
	# bounded because it can block on XPRT_LOCKED (see the header).
	_xs=0
	xprt_state_write "$_td" offline 120 || _xs=$?
	if [ "$_xs" = 2 ]; then
		fail "setting $_td offline has not returned after 120 s (waiting for the transport lock)"
		wait "$_spid"
		return 1
	fi
	[ "$_xs" = 0 ] || fail "cannot set $_td offline"
	echo remove >"$_td/xprt_state" ||
		fail "cannot remove $_td"
	touch_xprts
	info "trunk state after remove: $(cat "$_td/xprt_state" 2>/dev/null || echo gone)"

	wait "$_spid" || return 1
	swap_off "$NFS_MNT/swapfile"
	umount /mnt/disc
	sysfs_xprt_dump
}

run_scenario "$@"
