#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A SOCK_MEMALLOC socket that does not carry swap keeps the base kernel's
# limits: an NBD device in the client (connected and read, never used for
# swap) reads past tcp_mem exactly as on 6.1, one skb at a time.
#
# Why: nbd, nvme-tcp and iscsi_tcp mark every socket they create
# SOCK_MEMALLOC, swap or not.  netvm's TCP rule (a socket that carries swap
# may fill its own receive buffer past tcp_mem) must reach only sockets
# the swap transport marked (SOCK_SWAP), never a storage connection.
#
# How: as in t0600, four client sockets sit on unread data and tcp_mem is
# cut below what they hold, so every TCP socket is over the hard limit.
# No swap is on.  Then 1 MiB is read from /dev/nbd0.  On base and series
# alike the read crawls (TCPRcvQDrop rises: the NBD socket's skbs after the
# first of an empty queue are dropped); on the series TCPMemallocOverMem
# must stay 0.  A run in which TCPRcvQDrop did not move proves nothing
# and fails.  Figures: the counters' deltas over the read and its time.
# tags: netvm
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="NBD device (not swap) under tcp_mem pressure keeps base limits"
SCENARIO_TIMEOUT=600
READ_KIB=${SWAPNFS_NBD_READ_KIB:-1024}
GUEST_VARS=READ_KIB

server_main() {
	for p in 5001 5002 5003 5004; do
		yes 0123456789abcdef0123456789abcdef0123456789abcdef0123456789 |
			nc -l -p "$p" >/dev/null 2>&1 &
	done
}

client_main() {
	tcp_pages() { sed -n 's/^TCP:.* mem \([0-9]*\).*/\1/p' /proc/net/sockstat; }
	tcpext() { net_counter TcpExt "$1" /proc/net/netstat; }
	tcp_pages_at_least() { [ "$(tcp_pages)" -ge "$1" ]; }
	delta() { [ "$2" = absent ] && { echo absent; return; }; echo $(($2 - $1)); }

	# Connected, not swap: the kernel marks the socket SOCK_MEMALLOC
	# anyway (nbd_start_device()).
	wait_for 60 nbd-client "$SERVER_IP" -N swap /dev/nbd0 ||
		{ fail "nbd-client could not connect"; return 1; }
	grep -q nbd0 /proc/swaps && { fail "/dev/nbd0 is in /proc/swaps"; return 1; }

	echo "4096 1048576 1048576" >/proc/sys/net/ipv4/tcp_rmem
	for p in 5001 5002 5003 5004; do
		sleep 100000 | nc "$SERVER_IP" "$p" | sleep 100000 &
	done
	if ! wait_for 120 tcp_pages_at_least 256; then
		fail "unread TCP sockets hold only $(tcp_pages) pages after 120 s (want 256)"
		return 1
	fi
	held=$(tcp_pages)
	report tcp_pages_held "$held"
	old_mem=$(cat /proc/sys/net/ipv4/tcp_mem)
	echo "32 48 64" >/proc/sys/net/ipv4/tcp_mem
	info "tcp_mem $old_mem -> $(cat /proc/sys/net/ipv4/tcp_mem), $held pages held"

	q0=$(tcpext TCPRcvQDrop) m0=$(tcpext TCPMemallocOverMem)
	p0=$(tcpext RcvPruned) d0=$(tcpext PFMemallocDrop)
	t0=$(date +%s)
	dd if=/dev/nbd0 of=/dev/null bs=64k count=$((READ_KIB / 64)) 2>/tmp/dd.err ||
		{ fail "reading /dev/nbd0 failed: $(tail -n1 /tmp/dd.err)"; return 1; }
	t1=$(date +%s)
	report nbd_read_kib "$READ_KIB"
	report nbd_read_s $((t1 - t0))
	report tcp_rcvq_drop "$(delta "$q0" "$(tcpext TCPRcvQDrop)")"
	report tcp_rcv_pruned "$(delta "$p0" "$(tcpext RcvPruned)")"
	report pfmemalloc_drop "$(delta "$d0" "$(tcpext PFMemallocDrop)")"
	over=$(delta "$m0" "$(tcpext TCPMemallocOverMem)")
	report tcp_memalloc_over_mem "$over"
	[ "$(tcp_pages)" -gt 64 ] ||
		fail "the unread sockets no longer hold more than tcp_mem[2]: the NBD read never met the limit"
	[ "$(delta "$q0" "$(tcpext TCPRcvQDrop)")" -gt 0 ] ||
		fail "TCPRcvQDrop did not move: the NBD socket never met tcp_mem, the run proves nothing"
	[ "$over" = absent ] || [ "$over" -eq 0 ] ||
		fail "TCPMemallocOverMem moved by $over with no swap socket: the swap rule reached the NBD socket"
	echo "$old_mem" >/proc/sys/net/ipv4/tcp_mem
	nbd-client -d /dev/nbd0 >/dev/null 2>&1
	return 0
}

run_scenario "$@"
