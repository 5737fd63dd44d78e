#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# After swapoff, with memory recovered, an ordinary socket sees no
# pfmemalloc drops: nothing the series changed for swap outlives it.
#
# Why: while a SOCK_MEMALLOC socket exists the receive path may build skbs
# from the emergency reserves, and an skb carved from a reserve page is
# delivered only to SOCK_MEMALLOC sockets; everyone else's copy is dropped
# and counted in PFMemallocDrop.  A reserve page that stays in a ring or
# frag cache after swapoff would keep dropping ordinary packets.  (v1 of
# netvm refilled virtio-net's ring from the reserves; v2 does not.)
#
# How: the server sends an ordinary UDP socket of the client (a DHCP
# server's port, nothing to do with swap) about 500 datagrams a second,
# from boot to the end, each longer than virtio-net's copy threshold, so
# that each lands in a receive-ring buffer as an NFS reply does.  With
# swap on NFSv4.2, the stress runs under the squeeze of t0610
# (min_free_kbytes raised for 2 s in every 10): the ring is then refilled
# from the reserves now and then, and datagrams that land there are
# dropped, so PFMemallocDrop must move.  If it does not, this run could
# not see a reserve page after swapoff either, and it is a SKIP (unable
# to tell), never a pass.  Then swapoff, wait until MemAvailable is back
# above a quarter of RAM, and count for 30 s more while 32 MiB of the
# swap file are read back over NFS (its transport is no longer
# SOCK_MEMALLOC): with memory recovered nothing reclaims, so no buffer
# may come from the reserves, and PFMemallocDrop must not move.
# Figures: the drops and datagrams in each phase, MemAvailable at the
# start of the second.
# tags: netvm
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="after swapoff and memory recovered, no pfmemalloc drops on an ordinary socket"
SCENARIO_TIMEOUT=900
STRESS_MIB=${SWAPNFS_STRESS_MIB:-160}

server_main() {
	# busybox nc has no UDP; syslogd -R forwards each line as one
	# datagram (as in t0610), here of about 230 bytes.
	syslogd -n -R "$CLIENT_IP:67" &
	(
		line=$(printf '%0200d' 0)
		while :; do
			yes "$line" | head -n 500 | logger -t ordinary
			sleep 1
		done
	) >/dev/null 2>&1 &
}

client_main() {
	tcpext() { net_counter TcpExt "$1" /proc/net/netstat; }
	datagrams() { net_counter Udp InDatagrams /proc/net/snmp; }
	mem_avail() { awk '/^MemAvailable/ { print $2 }' /proc/meminfo; }
	mem_total() { awk '/^MemTotal/ { print $2 }' /proc/meminfo; }
	recovered() { [ "$(mem_avail)" -ge $(($(mem_total) / 4)) ]; }
	port67_bound() { grep -q '^ *[0-9]*: [0-9A-F]*:0043 ' /proc/net/udp; }

	# The ordinary socket: udhcpd's on UDP port 67.  It reads what comes
	# and ignores it; every datagram passes the pfmemalloc check first.
	printf 'interface eth0\nstart 192.0.2.100\nend 192.0.2.200\nlease_file /tmp/udhcpd.leases\n' \
		>/tmp/udhcpd.conf
	udhcpd -f /tmp/udhcpd.conf >/tmp/udhcpd.log 2>&1 &
	wait_for 20 port67_bound ||
		{ fail "udhcpd did not bind UDP port 67: $(tail -n1 /tmp/udhcpd.log)"; return 1; }

	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile"
	s0=$(tcpext PFMemallocDrop) u0=$(datagrams)
	squeeze_start 16384 10 2
	stress
	squeeze_stop
	swap_off "$NFS_MNT/swapfile" || return 1
	s1=$(tcpext PFMemallocDrop)
	report datagrams_swapping $(($(datagrams) - u0))
	report pfmemalloc_drop_swapping $((s1 - s0))
	# Not a failure of the kernel: the check below would be blind.
	[ "$s1" -gt "$s0" ] ||
		{ skip "no pfmemalloc drop while swapping under the squeeze: this run cannot tell whether one happens after swapoff"; return 0; }
	wait_for 120 recovered ||
		{ fail "MemAvailable $(mem_avail) kB, not back above a quarter of RAM 120 s after swapoff"; return 1; }
	report mem_available_kb "$(mem_avail)"

	d0=$(tcpext PFMemallocDrop) u0=$(datagrams)
	echo 3 >/proc/sys/vm/drop_caches
	dd if="$NFS_MNT/swapfile" of=/dev/null bs=64k count=512 2>/tmp/dd.err ||
		{ fail "reading the swap file after swapoff failed: $(tail -n1 /tmp/dd.err)"; return 1; }
	sleep 30
	d1=$(tcpext PFMemallocDrop) u1=$(datagrams)
	report datagrams_after_swapoff $((u1 - u0))
	report pfmemalloc_drop_after_swapoff $((d1 - d0))
	[ "$u1" -gt "$u0" ] || fail "no datagram reached the ordinary socket after swapoff"
	[ "$d1" -eq "$d0" ] ||
		fail "PFMemallocDrop moved by $((d1 - d0)) after swapoff with memory recovered: reserve pages outlived swap"
	return 0
}

run_scenario "$@"
