#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A transport that joins the client's transport switch after swapon (NFSv4.1+
# session trunking: the same server mounted through a second address) is
# marked as a swapper at once, unmarked by swapoff, and marked again by the
# next swapon: the counts stay balanced.
#
# How the transport gets added: the server has a second address
# (192.0.2.11).  The first mount uses max_connect=2.  After swapon, a
# second mount through 192.0.2.11 finds the same server (same server owner
# in EXCHANGE_ID), so nfs4_add_trunk() adds a transport to 192.0.2.11 to
# the first mount's switch instead of making a new client.
#
# On the plain 6.1 base the added transport is never marked (and swapoff
# drives its count to -1, so later swapons never mark it either).  The
# base itself cannot show that: it has no swapper= line, so there the
# scenario fails at its first check.  The gap was shown with the sunrpc
# series up to its xprtrdma patch (swapper line, no switch marks): the
# added transport said swapper=0 after swapon.
# tags: ci sunrpc
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="transport added by session trunking after swapon is marked swapper, counts balanced"
SCENARIO_GAP="6.1 does not mark transports added after swapon (on the base: no swapper= line to show it)"

server_main() {
	ip addr add 192.0.2.11/24 dev eth0
}

client_main() {
	SECOND_IP=192.0.2.11
	# swapper_of ADDR: the swapper= value of the transport to ADDR (in any
	# switch), or "none" if no connected transport to ADDR exists.
	swapper_of() {
		for _d in /sys/kernel/sunrpc/xprt-switches/switch-*/xprt-*; do
			[ "$(cat "$_d/dstaddr" 2>/dev/null)" = "$1" ] || continue
			grep -q '^last_used=' "$_d/xprt_info" 2>/dev/null || continue
			_v=$(sed -n 's/^swapper=//p' "$_d/xprt_info")
			echo "${_v:-absent}"
			return 0
		done
		echo none
	}
	# expect ADDR WANT WHEN
	expect() {
		_v=$(swapper_of "$1")
		report "swapper_${3}_$(echo "$1" | tr . _)" "$_v"
		[ "$_v" = "$2" ] && return 0
		fail "$3: transport to $1 says swapper=$_v, want $2"
		sysfs_xprt_dump
		return 1
	}
	# Traffic on every transport of the switch (round-robin), so that
	# both are connected and show their state in xprt_info.
	touch_xprts() {
		sync
		echo 3 >/proc/sys/vm/drop_caches
		dd if="$NFS_MNT/nbd-swap" of=/dev/null bs=64k count=32 2>/dev/null
	}

	nfs_mount vers=4.2,proto=tcp,hard,max_connect=2
	swap_on "$NFS_MNT/swapfile"
	touch_xprts
	expect "$SERVER_IP" 1 after_swapon
	[ "$(swapper_of "$SECOND_IP")" = none ] ||
		{ fail "a transport to $SECOND_IP exists before the trunk mount"; return 1; }

	mkdir -p /mnt/trunk
	mount -t nfs -o "vers=4.2,proto=tcp,hard,max_connect=2,addr=$SECOND_IP,clientaddr=$CLIENT_IP" \
		"$SECOND_IP:/export" /mnt/trunk ||
		{ fail "mount through $SECOND_IP failed"; return 1; }
	# The trunk is tested with an asynchronous NULL call and then added.
	if ! wait_for 30 sh -c "grep -qx '$SECOND_IP' /sys/kernel/sunrpc/xprt-switches/switch-*/xprt-*/dstaddr"; then
		sysfs_xprt_dump
		skip "no transport to $SECOND_IP joined a switch: session trunking did not happen"
		return 0
	fi
	info "trunked transport to $SECOND_IP added while swap is on"
	touch_xprts
	expect "$SECOND_IP" 1 added_after_swapon
	stress -r 1.5 -n 1
	touch_xprts
	expect "$SECOND_IP" 1 after_stress

	swap_off "$NFS_MNT/swapfile"
	touch_xprts
	expect "$SERVER_IP" 0 after_swapoff
	expect "$SECOND_IP" 0 after_swapoff

	swap_on "$NFS_MNT/swapfile"
	touch_xprts
	expect "$SERVER_IP" 1 after_second_swapon
	expect "$SECOND_IP" 1 after_second_swapon
	swap_off "$NFS_MNT/swapfile"
	touch_xprts
	expect "$SECOND_IP" 0 after_second_swapoff
	umount /mnt/trunk
}

run_scenario "$@"
