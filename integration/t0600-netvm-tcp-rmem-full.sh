#!/bin/bash
# Swap over NFSv3/TCP while other TCP sockets of the client sit on unread
# data past the global tcp_mem hard limit (the 2012 netvm test): the
# stress completes and every page verifies.  Holds on base and series.
#
# How: the server runs senders that never stop; the client connects to
# them and never reads, so their receive queues fill (tcp_rmem raised
# first so that each can hold up to 1 MiB).  Once swap is on, tcp_mem is cut
# below what those sockets hold: every TCP socket is now over the hard
# limit and only the rules for swap sockets (pfmemalloc skbs on
# SOCK_MEMALLOC sockets) and for empty queues (the first skb is always
# charged) let the NFS replies in.  Figures: the TCP pages held before and
# after, the PFMemallocRcvOverLimit counter (series only; "absent" on
# base), PFMemallocDrop and TCPRcvQDrop.
# tags: netvm
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="swap on NFSv3/TCP while unread TCP sockets hold more than tcp_mem"
SCENARIO_TIMEOUT=900
# 1.5x RAM keeps a run short enough to repeat.  Measured (TCG, loaded
# host): on 6.1 past tcp_mem the NFS socket receives one skb at a time
# (TCPRcvQDrop climbs, ~20 swap-ins/s) and even this does not finish in
# SCENARIO_TIMEOUT; the progress lines tell a crawl from a hang.
STRESS_MIB=${SWAPNFS_STRESS_MIB:-192}

server_main() {
	# One never-ending sender a port; each serves one connection.
	for p in 5001 5002 5003 5004; do
		yes 0123456789abcdef0123456789abcdef0123456789abcdef0123456789 |
			nc -l -p "$p" >/dev/null 2>&1 &
	done
}

client_main() {
	# TCP pages in use (the "mem" field of /proc/net/sockstat).
	tcp_pages() { sed -n 's/^TCP:.* mem \([0-9]*\).*/\1/p' /proc/net/sockstat; }
	tcpext() { net_counter TcpExt "$1" /proc/net/netstat; }
	tcp_pages_at_least() { [ "$(tcp_pages)" -ge "$1" ]; }

	nfs_mount vers=3,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile"

	# Unread sockets: nc's stdout is a pipe nobody reads, so nc blocks
	# on it and stops reading its socket.  Autotuning grows rcvbuf only
	# for a reader, so start from a large tcp_rmem default.
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
	# Cut the limits below what is held: every TCP socket is now past
	# the hard limit, and stays there, because nobody reads.
	old_mem=$(cat /proc/sys/net/ipv4/tcp_mem)
	echo "32 48 64" >/proc/sys/net/ipv4/tcp_mem
	info "tcp_mem $old_mem -> $(cat /proc/sys/net/ipv4/tcp_mem), $held pages held"

	progress_start 'echo "tcp_pages=$(tcp_pages) TCPRcvQDrop=$(tcpext TCPRcvQDrop) PFMemallocRcvOverLimit=$(tcpext PFMemallocRcvOverLimit)"'
	stress
	progress_stop

	report tcp_pages_after "$(tcp_pages)"
	report pfmemalloc_rcv_over_limit "$(tcpext PFMemallocRcvOverLimit)"
	report pfmemalloc_drop "$(tcpext PFMemallocDrop)"
	report tcp_rcvq_drop "$(tcpext TCPRcvQDrop)"
	[ "$(tcp_pages)" -gt 64 ] ||
		fail "the unread sockets no longer hold more than tcp_mem[2] after the stress"
	echo "$old_mem" >/proc/sys/net/ipv4/tcp_mem
	swap_off "$NFS_MNT/swapfile"
}

run_scenario "$@"
