#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Swap over NFSv3/UDP while a UDP flood from the server fills a socket of
# the client that nobody reads, past the udp_mem hard limit: with the
# netvm series the stress completes and every page verifies; the plain
# base stops swapping (the gap this scenario demonstrates).
#
# How: the server forwards a steady stream of syslog lines (busybox
# syslogd -R) to UDP port 67 of the client, where a stopped udhcpd holds
# the socket open without reading.  Once swap is on and that socket holds
# some pages, udp_mem is cut below what it holds, so every UDP socket of
# the client is past udp_mem[2] for the rest of the run.  On 6.1 a UDP
# socket past the hard limit drops every datagram that needs a new page,
# SOCK_MEMALLOC or not, pfmemalloc or not: the NFS replies are dropped and
# retransmitted into the same refusal.
# Figures: the UDP pages held, the counters of netvm's two UDP rules
# (series only; "absent" on base): PFMemallocRcvOverLimit (netvm/0001, a
# pfmemalloc reply taken past udp_mem) and UDPMemallocOverMem (netvm/0003,
# the one skb an idle swap socket takes past udp_mem), and the Udp
# RcvbufErrors/MemErrors drop counters.  A series pass must show both
# counters > 0: without them the limit was never in the swap socket's way.
#
# A reply is pfmemalloc only if its buffer came from the reserves, which
# this guest reaches on its own only now and then (without help, v1 and
# the first v2 runs counted 0).  An NFS reply is longer than virtio-net's
# copy threshold (128 bytes), so its skb is built on the ring's own page,
# and that page is a reserve page only if NAPI refilled the ring below
# the GFP_ATOMIC floor while running on top of a PF_MEMALLOC task
# (kswapd, a direct reclaimer).  So during the stress min_free_kbytes is
# raised for 2 s in every 10 (squeeze_start): free memory is then below
# that floor while kswapd works, and netvm/0001's rule is what lets such
# replies in past udp_mem.
# tags: netvm
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="swap on NFSv3/UDP while an unread UDP flood holds more than udp_mem"
SCENARIO_GAP="6.1 drops NFS/UDP replies for a SOCK_MEMALLOC socket past udp_mem[2]"
# The series needs about 15-20 minutes here (TCG, host loaded by other
# guests); base stops swapping within the first minute.
SCENARIO_TIMEOUT=1800
# 1.5x RAM keeps a run short enough to repeat on a loaded host.
STRESS_MIB=${SWAPNFS_STRESS_MIB:-192}

server_main() {
	# nfs-utils serves NFS over UDP only when asked (its default is udp=n).
	printf '[nfsd]\nudp=y\n' >/etc/nfs.conf
	# About 100 datagrams a second, for ever: enough to keep the sink
	# full, little enough to leave the server's one CPU to nfsd.
	syslogd -n -R "$CLIENT_IP:67" &
	(
		while :; do
			yes "netvm flood 0123456789abcdef0123456789abcdef0123456789abcdef" |
				head -n 100 | logger -t flood
			sleep 1
		done
	) >/dev/null 2>&1 &
}

client_main() {
	# UDP pages in use (the "mem" field of /proc/net/sockstat).
	udp_pages() { sed -n 's/^UDP: .* mem \([0-9]*\).*/\1/p' /proc/net/sockstat; }
	udp_pages_at_least() { [ "$(udp_pages)" -ge "$1" ]; }
	port67_bound() { grep -q '^ *[0-9]*: [0-9A-F]*:0043 ' /proc/net/udp; }

	nfs_mount vers=3,proto=udp,hard
	# Swap first: the NFS socket becomes SOCK_MEMALLOC at swapon, and
	# only swap I/O is under test (a plain NFS/UDP mount past udp_mem
	# stops on every kernel).
	swap_on "$NFS_MNT/swapfile"

	# The sink: udhcpd binds UDP port 67; stopped, it never reads again.
	# Give its socket a 4 MiB receive buffer (rmem_default at creation):
	# the UDP pages in /proc/net/sockstat leave out up to 1 MiB of
	# per-CPU reserve (SK_MEMORY_PCPU_RESERVE), and so do the udp_mem
	# checks, so the sink must hold more than that to be seen at all.
	old_rmem=$(cat /proc/sys/net/core/rmem_default)
	echo 4194304 >/proc/sys/net/core/rmem_max
	echo 4194304 >/proc/sys/net/core/rmem_default
	printf 'interface eth0\nstart 192.0.2.100\nend 192.0.2.200\nlease_file /tmp/udhcpd.leases\n' \
		>/tmp/udhcpd.conf
	udhcpd -f /tmp/udhcpd.conf >/tmp/udhcpd.log 2>&1 &
	sink=$!
	if ! wait_for 20 port67_bound; then
		fail "udhcpd did not bind UDP port 67: $(tail -n1 /tmp/udhcpd.log)"
		return 1
	fi
	kill -STOP "$sink"
	echo "$old_rmem" >/proc/sys/net/core/rmem_default
	if ! wait_for 180 udp_pages_at_least 300; then
		fail "the unread UDP socket holds only $(udp_pages) pages after 180 s (want 300)"
		return 1
	fi
	held=$(udp_pages)
	report udp_pages_held "$held"
	old_mem=$(cat /proc/sys/net/ipv4/udp_mem)
	echo "4 6 8" >/proc/sys/net/ipv4/udp_mem
	info "udp_mem $old_mem -> $(cat /proc/sys/net/ipv4/udp_mem), $held pages held"

	progress_start 'echo "udp_pages=$(udp_pages) MemErrors=$(net_counter Udp MemErrors /proc/net/snmp) PFMemallocRcvOverLimit=$(net_counter TcpExt PFMemallocRcvOverLimit /proc/net/netstat) UDPMemallocOverMem=$(net_counter TcpExt UDPMemallocOverMem /proc/net/netstat)"'
	# 16 MiB: the GFP_ATOMIC floor (3/8 of it, 6 MiB) is then above the
	# 5.5-6 MiB the console showed free during a squeeze.
	squeeze_start 16384 10 2
	stress
	squeeze_stop
	progress_stop

	report udp_pages_after "$(udp_pages)"
	over=$(net_counter TcpExt PFMemallocRcvOverLimit /proc/net/netstat)
	report pfmemalloc_rcv_over_limit "$over"
	idle=$(net_counter TcpExt UDPMemallocOverMem /proc/net/netstat)
	report udp_memalloc_over_mem "$idle"
	report pfmemalloc_drop "$(net_counter TcpExt PFMemallocDrop /proc/net/netstat)"
	report udp_rcvbuf_errors "$(net_counter Udp RcvbufErrors /proc/net/snmp)"
	report udp_mem_errors "$(net_counter Udp MemErrors /proc/net/snmp)"
	[ "$(udp_pages)" -gt 8 ] ||
		fail "the unread UDP socket no longer holds more than udp_mem[2] after the stress"
	[ "$idle" = absent ] || [ "$idle" -gt 0 ] ||
		fail "UDPMemallocOverMem is 0: the swap socket never met udp_mem"
	[ "$over" = absent ] || [ "$over" -gt 0 ] ||
		fail "PFMemallocRcvOverLimit is 0: no pfmemalloc reply met udp_mem"
	echo "$old_mem" >/proc/sys/net/ipv4/udp_mem
	kill -KILL "$sink"
	swap_off "$NFS_MNT/swapfile"
}

run_scenario "$@"
