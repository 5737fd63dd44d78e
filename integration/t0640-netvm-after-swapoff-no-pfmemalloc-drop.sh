#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# After swapoff, with memory recovered, ordinary TCP traffic sees no
# pfmemalloc drops: nothing the series changed for swap outlives it.
#
# Why: while a SOCK_MEMALLOC socket exists the receive path may build skbs
# from the emergency reserves, and an skb carved from a reserve page is
# delivered only to SOCK_MEMALLOC sockets; everyone else's copy is dropped
# and counted in PFMemallocDrop.  A reserve page that stays in a ring or
# frag cache after swapoff would keep dropping ordinary packets.  (v1 of
# netvm refilled virtio-net's ring from the reserves; v2 does not.)
#
# How: swap on NFSv4.2 and the stress, with an ordinary TCP socket
# receiving from the server all the while (about 640 KiB/s) and
# min_free_kbytes raised for 2 s in every 10 (squeeze_start, as t0610):
# receive buffers then come from the reserves, and PFMemallocDrop must
# move.  If it does not, nothing after swapoff could show a reserve page
# either, and the run fails as unable to tell.  Then swapoff, wait until
# MemAvailable is back above a quarter of RAM, and do it again without
# swap: a second ordinary socket for 30 s under the same squeeze, and
# 32 MiB of the swap file read back over NFS (its transport is no longer
# SOCK_MEMALLOC).  PFMemallocDrop must not move.  On base this holds:
# with no SOCK_MEMALLOC socket left, softirq receive no longer runs
# with PF_MEMALLOC, so no receive buffer comes from the reserves.
# Figures: the drops while swapping and after swapoff, the bytes each
# ordinary socket received, MemAvailable at the start of the second.
# tags: netvm
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="after swapoff and memory recovered, no pfmemalloc drops on ordinary TCP"
SCENARIO_TIMEOUT=900
STRESS_MIB=${SWAPNFS_STRESS_MIB:-160}

server_main() {
	for p in 5001 5002; do
		yes 0123456789abcdef0123456789abcdef0123456789abcdef0123456789 |
			nc -l -p "$p" >/dev/null 2>&1 &
	done
}

client_main() {
	tcpext() { net_counter TcpExt "$1" /proc/net/netstat; }
	mem_avail() { awk '/^MemAvailable/ { print $2 }' /proc/meminfo; }
	mem_total() { awk '/^MemTotal/ { print $2 }' /proc/meminfo; }
	recovered() { [ "$(mem_avail)" -ge $(($(mem_total) / 4)) ]; }
	# An ordinary socket that keeps receiving, read 64 KiB at a time
	# every 0.1 s: every segment it gets passes the pfmemalloc check.
	traffic_start() {
		rm -f /tmp/tcp.fifo /tmp/tcp.bytes && mkfifo /tmp/tcp.fifo
		nc "$SERVER_IP" "$1" >/tmp/tcp.fifo 2>/dev/null &
		_nc_pid=$!
		(n=0; while c=$(head -c 65536 | wc -c) && [ "$c" -gt 0 ]; do
			n=$((n + c)); echo $n >/tmp/tcp.bytes; sleep 0.1
		done) </tmp/tcp.fifo &
		_rd_pid=$!
	}
	traffic_stop() {
		kill "$_nc_pid" "$_rd_pid" 2>/dev/null
		wait "$_nc_pid" "$_rd_pid" 2>/dev/null
		cat /tmp/tcp.bytes 2>/dev/null || echo 0
	}

	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile"
	s0=$(tcpext PFMemallocDrop)
	traffic_start 5001
	squeeze_start 16384 10 2
	stress -n 1
	squeeze_stop
	report tcp_bytes_swapping "$(traffic_stop)"
	swap_off "$NFS_MNT/swapfile" || return 1
	s1=$(tcpext PFMemallocDrop)
	report pfmemalloc_drop_swapping $((s1 - s0))
	[ "$s1" -gt "$s0" ] ||
		{ fail "no pfmemalloc drop while swapping under the squeeze: this run cannot tell whether one happens after swapoff"; return 1; }
	wait_for 120 recovered ||
		{ fail "MemAvailable $(mem_avail) kB, not back above a quarter of RAM 120 s after swapoff"; return 1; }
	report mem_available_kb "$(mem_avail)"

	d0=$(tcpext PFMemallocDrop)
	traffic_start 5002
	squeeze_start 16384 10 2
	sleep 30
	echo 3 >/proc/sys/vm/drop_caches
	dd if="$NFS_MNT/swapfile" of=/dev/null bs=64k count=512 2>/tmp/dd.err ||
		{ squeeze_stop; traffic_stop >/dev/null; fail "reading the swap file after swapoff failed: $(tail -n1 /tmp/dd.err)"; return 1; }
	squeeze_stop
	got=$(traffic_stop)
	d1=$(tcpext PFMemallocDrop)
	report tcp_bytes_after_swapoff "$got"
	report pfmemalloc_drop_after_swapoff $((d1 - d0))
	[ "$got" -gt 0 ] || fail "the ordinary socket received nothing after swapoff"
	[ "$d1" -eq "$d0" ] ||
		fail "PFMemallocDrop moved by $((d1 - d0)) after swapoff under the same squeeze: reserve pages outlived swap"
	return 0
}

run_scenario "$@"
