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
	# Up already when the initramfs mounted an NFS root (nfsroot_switch).
	ip addr show dev eth0 | grep -q "inet $1/" && return 0
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

# The diskless boot, as dracut's nfs module does it: from the initramfs,
# mount the root the server prepared (server:/export/nfsroot, with the
# scenario's NFSROOT mount options) and switch_root into it.  /init runs
# again from there, so every binary from then on is paged in over NFS, and
# the initramfs is freed.  Returns only when the mount fails.
nfsroot_switch() {
	net_up "$CLIENT_IP" || { echo "SWAPNFS-RESULT fail no network for the NFS root"; return 1; }
	mkdir -p /sysroot
	wait_for 60 mount -t nfs -o "$NFSROOT,addr=$SERVER_IP,clientaddr=$CLIENT_IP" \
		"$SERVER_IP:/export/nfsroot" /sysroot || {
		echo "SWAPNFS-RESULT fail mount -t nfs -o $NFSROOT $SERVER_IP:/export/nfsroot failed"
		return 1
	}
	[ -x /sysroot/init ] || {
		echo "SWAPNFS-RESULT fail the NFS root has no /init"
		return 1
	}
	echo "SWAPNFS-INFO NFS root $SERVER_IP:/export/nfsroot mounted ($NFSROOT)"
	# The new root mounts its own; nothing may pin the old one.
	umount /dev/pts /dev /tmp /run /sys
	umount /proc
	exec switch_root /sysroot /init
}

# The file system type of / ("rootfs" in the initramfs).
root_fstype() {
	awk '$2 == "/" { t = $3 } END { print t }' /proc/mounts
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

# beside_stress ROUND NAME [stress options]: run the stress and, beside
# it, the shell function ROUND (called with 1, 2, ...) one round after
# another until the stress ends: work that must keep going while the
# client swaps (t0560, t0570).  Reports NAME_rounds, the rounds that
# finished, and sets $rounds to it.  Fails when the stress fails, a
# round fails, or not one round finished.
beside_stress() {
	_bf=$1 _bn=$2
	shift 2
	rm -f /tmp/stress.done /tmp/rounds
	(
		_n=0
		while [ ! -f /tmp/stress.done ]; do
			"$_bf" "$((_n + 1))" || { fail "$_bn round $((_n + 1)) failed"; exit 1; }
			_n=$((_n + 1))
		done
		echo "$_n" >/tmp/rounds
	) &
	_bp=$!
	_brc=0
	stress "$@" || _brc=$?
	: >/tmp/stress.done
	wait "$_bp" || _brc=1
	rounds=$(cat /tmp/rounds 2>/dev/null || echo 0)
	report "${_bn}_rounds" "$rounds"
	[ "$rounds" -gt 0 ] || { fail "not one $_bn round finished during the stress"; _brc=1; }
	return "$_brc"
}

# Every sunrpc transport the kernel exposes, with its state (sysfs).
sysfs_xprt_dump() {
	for f in /sys/kernel/sunrpc/xprt-switches/*/xprt-*/xprt_info; do
		[ -f "$f" ] || continue
		echo "== $f"
		cat "$f"
	done
}

# xprt_state_write DIR STATE SECS: write STATE (offline, online, remove)
# to DIR/xprt_state of a transport in sysfs, bounded.  The write takes
# the transport's XPRT_LOCKED and may wait for it (t0430, t0440), so it
# runs in the background, polled every 0.1 s.  Returns 0 when it
# succeeded, 1 when it failed, 2 when it has not returned after SECS:
# then a sysrq-w dump of the blocked tasks and every transport's state
# bits are on the console (the holder is usually an async RPC task,
# which sysrq-w cannot show; the bits, read without the lock, say
# whether the transport is connecting, closing or only busy).
xprt_state_write() {
	rm -f /tmp/xs.rc
	(echo "$2" >"$1/xprt_state"; echo $? >/tmp/xs.rc) &
	_xw=$(($3 * 10))
	while [ ! -s /tmp/xs.rc ] && [ "$_xw" -gt 0 ]; do
		sleep 0.1
		_xw=$((_xw - 1))
	done
	if [ ! -s /tmp/xs.rc ]; then
		echo w >/proc/sysrq-trigger
		for _xs in /sys/kernel/sunrpc/xprt-switches/*/xprt-*/xprt_state; do
			info "$_xs: $(cat "$_xs")"
		done
		return 2
	fi
	[ "$(cat /tmp/xs.rc)" = 0 ]
}

# Fault injection (debug kernel: failslab, fail_page_alloc in debugfs).
# fi_set ATTR PERCENT TASK_FILTER IGNORE_WAIT: fail PERCENT % of ATTR's
# allocations; TASK_FILTER Y limits it to tasks with make-it-fail (never
# interrupts), IGNORE_WAIT Y to allocations that cannot sleep (GFP_ATOMIC,
# GFP_NOWAIT).  Returns 1 (after fail) on a kernel without it.
# fi_stop WHAT ATTR...: stops ATTR..., reports injected_ATTR and
# injected_failures; returns 1 (after fail) when none fired, since then
# the scenario tested nothing (WHAT says where they were aimed).
_fi_times=1000000
fi_set() {
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
	_d=/sys/kernel/debug/$1
	[ -d "$_d" ] || { fail "no $_d: this kernel has no fault injection"; return 1; }
	echo "$3" >"$_d/task-filter"
	echo "$4" >"$_d/ignore-gfp-wait"
	echo 0 >"$_d/verbose"
	echo 0 >"$_d/space"
	echo 1 >"$_d/interval"
	echo "$_fi_times" >"$_d/times"
	[ "$1" != fail_page_alloc ] || echo 0 >"$_d/min-order"
	echo "$2" >"$_d/probability"
}
fi_stop() {
	_what=$1
	shift
	injected=0
	for _a; do
		echo 0 >"/sys/kernel/debug/$_a/probability"
		_left=$(cat "/sys/kernel/debug/$_a/times")
		report "injected_$_a" $((_fi_times - _left))
		injected=$((injected + _fi_times - _left))
	done
	report injected_failures "$injected"
	[ "$injected" -gt 0 ] ||
		{ fail "no allocation failure was injected into $_what: nothing was tested"; return 1; }
}

# manager_fail_start PERCENT: fail PERCENT % of the allocations of the
# NFSv4 state manager ("<server>-manager"), sleeping ones included.  The
# manager is resident while swap is on with the series, and started by
# recovery on 6.1: a loop gives every thread of that name make-it-fail
# within 0.2 s of its start.
# manager_fail_stop: ends it (fi_stop's figures and status).
manager_fail_start() {
	fi_set failslab "$1" Y N && fi_set fail_page_alloc "$1" Y N || return 1
	(while :; do
		for _p in /proc/[0-9]*; do
			case $(cat "$_p/comm" 2>/dev/null) in
			"$SERVER_IP"-manag*)
				[ "$(cat "$_p/make-it-fail" 2>/dev/null)" = 1 ] ||
					echo 1 >"$_p/make-it-fail" 2>/dev/null ;;
			esac
		done
		sleep 0.2 2>/dev/null || sleep 1
	done) &
	_fi_marker=$!
}
manager_fail_stop() {
	kill "$_fi_marker" 2>/dev/null
	fi_stop "the state manager" failslab fail_page_alloc
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

# squeeze_start KB PERIOD HOLD: every PERIOD s, raise min_free_kbytes to
# KB for HOLD s (tools/squeeze).  While it is raised, free memory is below
# what a GFP_ATOMIC allocation may leave, so a receive buffer that may use
# the reserves comes from them and its skb is pfmemalloc.  A swap client
# gets there on its own only now and then; the squeeze makes it happen
# every PERIOD s, so that the rules for pfmemalloc skbs are used, not just
# present.  It is a program, not a shell loop: a shell forking `sleep`
# during a squeeze waits in reclaim and never lowers the value again.
# squeeze_stop: ends it (the value is put back) and reports the squeezes.
squeeze_start() {
	squeeze "$@" >/tmp/squeeze.out 2>&1 &
	_sq_pid=$!
}
squeeze_stop() {
	kill "$_sq_pid" 2>/dev/null
	wait "$_sq_pid"
	_sq_rc=$?
	report squeezes "$(sed -n 's/^squeezes=//p' /tmp/squeeze.out)"
	[ "$_sq_rc" = 0 ] ||
		{ fail "squeeze failed (exit $_sq_rc): $(tail -n1 /tmp/squeeze.out)"; return 1; }
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
