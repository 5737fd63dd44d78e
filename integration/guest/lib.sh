# SPDX-License-Identifier: GPL-2.0
# Helpers for code that runs inside the guests (busybox ash, no bash-isms).
# Scenario functions (client_main, server_main) call these.

SERVER_IP=192.0.2.1
CLIENT_IP=192.0.2.2
NFS_MNT=/mnt/nfs
: "${SWAPNFS_STRESS_MIB:=}" "${SWAPNFS_STRESS_PASSES:=}"

cmdline_arg() {
	sed -n "s/.*\\<$1=\\([^ ]*\\).*/\\1/p" /proc/cmdline
}

# Messages the host parses.  report: a figure for the results table.
report() { echo "SWAPNFS-FIGURE $1=$2"; }
fail() { echo "SWAPNFS-FAIL $*"; echo "$*" >>/tmp/failed; }
skip() { echo "SWAPNFS-SKIP $*"; echo "$*" >>/tmp/skipped; }
info() { echo "SWAPNFS-INFO $*"; }

net_up() {
	ip link set lo up
	ip addr add "$1/24" dev eth0 || return 1
	ip link set eth0 up
}

# Poll a condition (a command) until it succeeds or $1 seconds pass.
wait_for() {
	_t=$1; shift
	while ! "$@" >/dev/null 2>&1; do
		_t=$((_t - 1))
		[ "$_t" -gt 0 ] || return 1
		sleep 1
	done
}

# Mount the server's export with mount(2) text options (busybox mount hands
# unknown NFS options to the kernel as a string, so no mount.nfs is needed).
# The server may still be starting: retry for a while.
nfs_mount() {
	_opts=$1
	_vers=$(echo "$_opts" | sed -n 's/.*vers=\([0-9.]*\).*/\1/p')
	_extra=
	case $_vers in 3*) _extra=,nolock,mountaddr=$SERVER_IP ;; esac
	mkdir -p "$NFS_MNT"
	wait_for 60 mount -t nfs -o "$_opts,addr=$SERVER_IP,clientaddr=$CLIENT_IP$_extra" \
		"$SERVER_IP:/export" "$NFS_MNT" || {
		fail "mount -t nfs -o $_opts $SERVER_IP:/export failed"
		return 1
	}
	info "mounted $SERVER_IP:/export with $_opts"
}

swap_on() {
	swapon "$1" || { fail "swapon $1 refused"; return 1; }
	info "swap on $1: $(grep -c '' /proc/swaps) lines in /proc/swaps"
}

swap_off() {
	swapoff "$1" || { fail "swapoff $1 failed"; return 1; }
}

# The command must fail (e.g. a swapon the kernel is meant to refuse).
expect_fail() {
	if "$@"; then
		fail "expected '$*' to fail, it succeeded"
		return 1
	fi
	return 0
}

# nfs_ops OP: the ops count of OP (READ, WRITE) summed over the NFS
# mounts in /proc/self/mountstats; 0 without an NFS mount.
nfs_ops() {
	awk -v op="$1:" '$1 == op { n += $2 } END { print n + 0 }' /proc/self/mountstats
}

# Run the swap stress; its "swapstress: key=value" lines become figures.
# On NFS also the READ and WRITE RPCs it took (nfs_read_rpcs,
# nfs_write_rpcs): with pswpin/pswpout they give the pages per RPC,
# which swap readahead (vm.page-cluster) and reclaim's write batches set.
stress() {
	# The run's size and passes (swapnfs.stress_mib, .stress_passes)
	# apply unless the scenario gave its own.
	case " $* " in
	*" -m "*|*" -r "*) ;;
	*) [ -n "$SWAPNFS_STRESS_MIB" ] && set -- -m "$SWAPNFS_STRESS_MIB" "$@" ;;
	esac
	case " $* " in
	*" -n "*) ;;
	*) [ -n "$SWAPNFS_STRESS_PASSES" ] && set -- -n "$SWAPNFS_STRESS_PASSES" "$@" ;;
	esac
	_rc=0
	# swapnfs.profile= (SWAPNFS_PROFILE): the function profiler runs
	# around the stress only (guest/profile.sh).
	_prof=$(cmdline_arg swapnfs.profile)
	if [ -n "$_prof" ]; then
		. /guest/profile.sh
		profile_start || return 1
	fi
	# Progress (stderr, every few seconds) goes to the console so that a
	# slow run can be told from a stuck one; the summary goes to a file.
	_r0=$(nfs_ops READ) _w0=$(nfs_ops WRITE)
	/bin/swapstress "$@" >/tmp/stress.out 2>/dev/console || _rc=$?
	[ -z "$_prof" ] || profile_stop
	if grep -q ' nfs4\{0,1\} ' /proc/mounts; then
		report nfs_read_rpcs $(( $(nfs_ops READ) - _r0 ))
		report nfs_write_rpcs $(( $(nfs_ops WRITE) - _w0 ))
	fi
	cat /tmp/stress.out
	sed -n 's/^swapstress: //p' /tmp/stress.out | tr ' ' '\n' |
		while IFS='=' read -r k v; do
			[ -n "$v" ] && report "$k" "$v"
		done
	[ "$_rc" -eq 0 ] || fail "swapstress exited $_rc"
	return "$_rc"
}

# Every sunrpc transport the kernel exposes, with its state (sysfs).
sysfs_xprt_dump() {
	for f in /sys/kernel/sunrpc/xprt-switches/*/xprt-*/xprt_info; do
		[ -f "$f" ] || continue
		echo "== $f"
		cat "$f"
	done
}

# A counter by name from a "Proto: names" / "Proto: values" pair of lines
# in /proc/net/netstat or /proc/net/snmp; "absent" if the kernel has none
# (e.g. a counter only the series adds).
#   net_counter TcpExt PFMemallocDrop /proc/net/netstat
net_counter() {
	awk -v p="$1:" -v k="$2" '$1 == p {
		if (!h) { for (i = 2; i <= NF; i++) n[i] = $i; h = 1; next }
		for (i = 2; i <= NF; i++) if (n[i] == k) { print $i; f = 1 }
	} END { if (!f) print "absent" }' "$3"
}

# progress_start CMD: every 30 s print an info line with pswpin/pswpout and
# the output of CMD (a shell command), so that a slow run can be told from a
# hung one; progress_stop ends it.
progress_start() {
	(
		while sleep 30; do
			info "progress $(awk '/^pswp(in|out) / { printf "%s=%s ", $1, $2 }' /proc/vmstat)$(eval "$1")"
		done
	) &
	_progress_pid=$!
}
progress_stop() { kill "$_progress_pid" 2>/dev/null; }
