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
# How: swap on NFSv4.2, the stress (memory runs out), swapoff, wait until
# MemAvailable is back above a quarter of RAM, then receive 32 MiB on an
# ordinary TCP socket (nc from the server) and read 32 MiB of the swap
# file back over NFS (its transport is no longer SOCK_MEMALLOC).
# PFMemallocDrop must not move during that traffic.  Figures: the drops
# during the stress and after swapoff, MemAvailable at the start of the
# traffic.
# tags: netvm
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="after swapoff and memory recovered, no pfmemalloc drops on ordinary TCP"
SCENARIO_TIMEOUT=900
STRESS_MIB=${SWAPNFS_STRESS_MIB:-160}

server_main() {
	yes 0123456789abcdef0123456789abcdef0123456789abcdef0123456789 |
		nc -l -p 5001 >/dev/null 2>&1 &
}

client_main() {
	tcpext() { net_counter TcpExt "$1" /proc/net/netstat; }
	mem_avail() { awk '/^MemAvailable/ { print $2 }' /proc/meminfo; }
	mem_total() { awk '/^MemTotal/ { print $2 }' /proc/meminfo; }
	recovered() { [ "$(mem_avail)" -ge $(($(mem_total) / 4)) ]; }

	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile"
	s0=$(tcpext PFMemallocDrop)
	stress -n 1
	swap_off "$NFS_MNT/swapfile" || return 1
	report pfmemalloc_drop_swapping $(($(tcpext PFMemallocDrop) - s0))
	wait_for 120 recovered ||
		{ fail "MemAvailable $(mem_avail) kB, not back above a quarter of RAM 120 s after swapoff"; return 1; }
	report mem_available_kb "$(mem_avail)"

	d0=$(tcpext PFMemallocDrop)
	got=$(nc "$SERVER_IP" 5001 2>/dev/null | head -c 33554432 | wc -c)
	echo 3 >/proc/sys/vm/drop_caches
	dd if="$NFS_MNT/swapfile" of=/dev/null bs=64k count=512 2>/tmp/dd.err ||
		{ fail "reading the swap file after swapoff failed: $(tail -n1 /tmp/dd.err)"; return 1; }
	d1=$(tcpext PFMemallocDrop)
	report tcp_bytes_received "$got"
	report pfmemalloc_drop_after_swapoff $((d1 - d0))
	[ "$got" -eq 33554432 ] || fail "received $got bytes from the server, want 33554432"
	[ "$d1" -eq "$d0" ] ||
		fail "PFMemallocDrop moved by $((d1 - d0)) after swapoff with memory recovered: reserve pages outlived swap"
	return 0
}

run_scenario "$@"
