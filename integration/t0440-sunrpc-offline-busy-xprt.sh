#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Taking a busy transport of a mount that holds active swap offline
# through sysfs, and back online, returns at once, many times in a row.
#
# Why it can hang: a write to
# /sys/kernel/sunrpc/xprt-switches/switch-N/xprt-M/xprt_state takes the
# transport's XPRT_LOCKED bit with wait_on_bit_lock(), which sleeps
# until someone calls wake_up_bit() for that bit.  RPC tasks pass the
# bit to each other while they transmit, and the last one clears it in
# xprt_clear_locked() without a wakeup; on 6.1 only a connect or a
# close wakes the bit's waiters.  A write that finds a transmit in
# progress therefore sleeps until the transport next reconnects, and a
# transport that carries swap traffic does not.  rpc_xprt_offline(),
# which the NFSv4 state manager calls for each trunk when it destroys a
# session, waits the same way.  sunrpc/0006 wakes the waiters in
# xprt_clear_locked().
#
# The scenario: NFSv4.2 with nconnect=2 and swap on the mount.  dd
# streams 1 MiB O_DIRECT WRITEs to a file on it, so that a transmit is
# in progress on both transports much of the time, and the transport
# that is not the main one is set offline and online again, back to
# back, TOGGLES times.  Each write has 60 s; one that takes longer fails
# the scenario, after a dump of the transports' state bits.  The window
# is a transmit's sendmsg(), so one write rarely finds the bit taken:
# the count is what makes the gap show.  The reserve is 4096 KiB, as
# in t0400: the hang that t0620 tracks is another one.
#
# Its base column is the series without sunrpc/0006 (run with --label
# base), as for netvm/0005 in t0620, so that it shows this patch alone.
# An earlier version that ran the swap stress instead of dd stalled on
# the plain base in the highatomic trap (mm/0001-0002) before any
# toggle; this version has not run on the plain base.
# tags: sunrpc
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="NFSv4.2 nconnect=2: a busy transport set offline and online through sysfs with swap on, every write returns"
SCENARIO_GAP="6.1 does not wake XPRT_LOCKED waiters when a transmit releases the bit"
TOGGLES=${SWAPNFS_TOGGLES:-300}
GUEST_VARS=TOGGLES

client_main() {
	# second_xprt: the sysfs directory of the transport of the
	# two-transport switch that is not the main one.
	second_xprt() {
		for _sw in /sys/kernel/sunrpc/xprt-switches/switch-*; do
			grep -qx 'num_xprts=2' "$_sw/xprt_switch_info" 2>/dev/null || continue
			for _d in "$_sw"/xprt-*; do
				grep -qx 'main_xprt=0' "$_d/xprt_info" 2>/dev/null &&
					{ echo "$_d"; return 0; }
			done
		done
		return 1
	}
	# set_state DIR STATE N: toggle N's write, 60 s at most.
	set_state() {
		xprt_state_write "$1" "$2" 60 && return 0
		if [ $? = 2 ]; then
			fail "writing $2 to $1/xprt_state has not returned after 60 s (toggle $3; waiting for XPRT_LOCKED)"
		else
			fail "writing $2 to $1/xprt_state failed (toggle $3)"
		fi
		return 1
	}

	echo 4096 >/proc/sys/vm/min_free_kbytes
	nfs_mount vers=4.2,proto=tcp,hard,nconnect=2
	swap_on "$NFS_MNT/swapfile"
	rm -f /tmp/load.stop
	(
		while [ ! -e /tmp/load.stop ]; do
			dd if=/dev/zero of="$NFS_MNT/load" bs=1M count=16 oflag=direct 2>/dev/null ||
				{ echo "dd to $NFS_MNT/load failed" >/tmp/load.err; break; }
		done
	) &
	_lpid=$!
	sleep 2
	if ! _x=$(second_xprt); then
		sysfs_xprt_dump
		touch /tmp/load.stop
		wait "$_lpid"
		fail "no second transport in a two-transport switch"
		return 1
	fi
	info "toggling $_x"
	_i=0 _rc=0
	while [ "$_i" -lt "$TOGGLES" ] && [ ! -e /tmp/load.err ]; do
		_i=$((_i + 1))
		set_state "$_x" offline "$_i" || { _rc=1; break; }
		set_state "$_x" online "$_i" || { _rc=1; break; }
	done
	report toggles "$_i"
	touch /tmp/load.stop
	# A blocked write leaves the load running until the scenario ends;
	# the verdict is already failed then.
	[ "$_rc" = 0 ] || return 1
	wait "$_lpid"
	[ ! -e /tmp/load.err ] || { fail "$(cat /tmp/load.err)"; return 1; }
	swap_off "$NFS_MNT/swapfile"
}

run_scenario "$@"
