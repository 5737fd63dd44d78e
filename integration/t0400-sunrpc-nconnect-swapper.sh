#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Swap on an NFSv4.2/TCP mount with nconnect=4: after swapon every one of
# the four transports is marked as a swapper (sysfs xprt_info says
# swapper=1), the stress verifies every page, and after swapoff no
# transport is marked any more (swapper=0).
#
# Why it matters: the swapper mark is what gives a transport SOCK_MEMALLOC
# and PF_MEMALLOC; a transport without it deadlocks under memory pressure.
#
# This is a regression test of the marks, not a gap: 6.1 marks nconnect
# transports correctly, because rpc_create() adds them at mount
# (rpc_clnt_add_xprt() in net/sunrpc/clnt.c), before swapon walks the
# switch.  The plain base only lacks the swapper= line this scenario
# reads (sunrpc patch 1), so it fails there at its first check and is
# not run on the base in CI (no SCENARIO_GAP, not tagged ci-base).
# tags: ci sunrpc
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="NFSv4.2 nconnect=4: every transport marked swapper while swap is on, none after swapoff"
# Four transports hold four sockets' worth of swap-out in flight, all of
# it paid from the memalloc reserves.  With the default min_free_kbytes
# (about 1.3 MiB in this guest) two full CI runs of the series hung
# here: at 18 s even __GFP_MEMALLOC allocations failed, virtio-net could
# not refill its receive ring, no reply came back and the mount said
# "server not responding" for good (the open gap t0620 keeps track of).
# What this scenario proves is the swapper mark, so it runs with the
# 4 MiB reserve that the admin guide of the mm topic
# (Documentation/admin-guide/nfs/swap-over-nfs.rst) tells an
# administrator to start from.
# SWAPNFS_MIN_FREE_KB=1294 (this guest's default) brings the hang back:
# with two CPU hogs on the host, 3 of 6 runs of the series hung.
MIN_FREE_KB=${SWAPNFS_MIN_FREE_KB:-4096}
GUEST_VARS=MIN_FREE_KB

client_main() {
	# check_swapper WANT WHEN: every transport of the nconnect switch (the
	# one with four transports) must say swapper=WANT.  Transports that
	# are not connected print "<closed>" instead of their state; the
	# caller makes sure they all carried traffic just before.
	check_swapper() {
		_want=$1 _when=$2 _n=0 _ok=0
		for _sw in /sys/kernel/sunrpc/xprt-switches/switch-*; do
			grep -qx 'num_xprts=4' "$_sw/xprt_switch_info" 2>/dev/null || continue
			for _f in "$_sw"/xprt-*/xprt_info; do
				[ -f "$_f" ] || continue
				_n=$((_n + 1))
				_v=$(sed -n 's/^swapper=//p' "$_f")
				if [ "$_v" = "$_want" ]; then
					_ok=$((_ok + 1))
				else
					info "$_when: $_f says swapper='$_v', want $_want"
					info "$_when: $(tr '\n' ' ' <"$_f")"
				fi
			done
		done
		report "xprts_$_when" "$_n"
		report "swapper_${_want}_$_when" "$_ok"
		[ "$_n" -eq 4 ] || { fail "$_when: found $_n transports in a 4-transport switch, want 4"; return 1; }
		[ "$_ok" -eq 4 ] || { fail "$_when: $_ok of 4 transports say swapper=$_want"; return 1; }
	}
	# Reads go round-robin over the transports: enough of them connect
	# all four, so that xprt_info shows their state.
	# The file read is the NBD backing file, never touched by NFS swap;
	# dropping the page cache first makes every read go to the server.
	touch_xprts() {
		sync
		echo 3 >/proc/sys/vm/drop_caches
		dd if="$NFS_MNT/nbd-swap" of=/dev/null bs=64k count=64 2>/dev/null
	}

	echo "$MIN_FREE_KB" >/proc/sys/vm/min_free_kbytes
	info "min_free_kbytes=$(cat /proc/sys/vm/min_free_kbytes)"
	nfs_mount vers=4.2,proto=tcp,hard,nconnect=4
	touch_xprts
	sysfs_xprt_dump
	check_swapper 0 before_swapon
	swap_on "$NFS_MNT/swapfile"
	touch_xprts
	check_swapper 1 after_swapon
	stress
	check_swapper 1 after_stress
	swap_off "$NFS_MNT/swapfile"
	touch_xprts
	check_swapper 0 after_swapoff
	sysfs_xprt_dump
}

run_scenario "$@"
