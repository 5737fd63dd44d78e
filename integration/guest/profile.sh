# SPDX-License-Identifier: GPL-2.0
# The ftrace function profiler around the stress (busybox ash).  Sourced by
# stress() in lib.sh when the client's command line has swapnfs.profile=
# (SWAPNFS_PROFILE on the host; integration/bench --profile sets it):
#   1    profile the functions of the swap, NFS, sunrpc, NBD, block, TCP/IP
#        and allocator paths (PROFILE_GLOBS): cheap enough under TCG
#   all  profile every traceable kernel function (slow under TCG)
# Needs a kernel with integration/config/profile.config
# (scripts/kernel-build --profile).  Times are CPU time inclusive of the
# callees (options: graph-time 1, sleep-time 0), in microseconds.
#
# Output on the console, parsed on the host by integration/profile-stats.py:
#   SWAPNFS-PROF-META key=value ...          what was profiled
#   SWAPNFS-PROF function<cpu> <trace_stat line>
#   SWAPNFS-PROF-VMSTAT pswpout=N pswpin=N wall_s=S user_ticks=N
#                       sys_ticks=N idle_ticks=N iowait_ticks=N hz=100
#                                            the window: swap traffic, CPU

PROFILE_GLOBS='nfs_* nfs4_* nfs41_* pnfs_* encode_* decode_* rpc_* __rpc_* rpcauth_* call_* xprt_* xs_* xdr_* __xdr_* svc_* *swap* swap_* nbd_* recv_work blk_* __blk_* blk_mq_* bio_* submit_bio* tcp_* __tcp_* sock_* __sock_* sk_* skb_* __skb_* ip_* __ip_* inet_* dev_queue_xmit __dev_queue_xmit netif_* napi_* virtnet_* virtqueue_* mempool_* kmem_cache_* __kmalloc* kmalloc* kfree __alloc_pages* alloc_pages* shrink_* handle_mm_fault do_swap_page queue_work_on process_one_work __schedule schedule try_to_wake_up copy_page* csum_*'
PROFILE_LINES=${PROFILE_LINES:-4000}
# /proc, and tracefs when set: the host's tests point them at fixtures.
PROF_PROC=${PROF_PROC:-/proc}

_prof_vm() {
	sed -n "s/^$1 //p" "$PROF_PROC/vmstat"
}

# Clock ticks (USER_HZ) of the cpu line in /proc/stat: user nice system
# idle iowait irq softirq.
_prof_cpu() {
	sed -n 's/^cpu  *//p' "$PROF_PROC/stat" | cut -d' ' -f1-7
}

profile_start() {
	_pmode=$(cmdline_arg swapnfs.profile)
	PROF_T=${PROF_T:-/sys/kernel/tracing}
	[ -f "$PROF_T/function_profile_enabled" ] ||
		mount -t tracefs nodev "$PROF_T" 2>/dev/null
	if [ ! -f "$PROF_T/function_profile_enabled" ] && [ -d /sys/kernel/debug ]; then
		mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
		PROF_T=/sys/kernel/debug/tracing
	fi
	[ -f "$PROF_T/function_profile_enabled" ] || {
		fail "profile: no function_profile_enabled in tracefs (kernel without CONFIG_FUNCTION_PROFILER? build it with scripts/kernel-build --profile)"
		return 1
	}
	# CPU time, callees included: a function that sleeps does not
	# count the time it was scheduled out.
	echo 0 >"$PROF_T/options/sleep-time" 2>/dev/null
	echo 1 >"$PROF_T/options/graph-time" 2>/dev/null
	: >"$PROF_T/set_ftrace_filter"
	_pn=0
	if [ "$_pmode" != all ]; then
		for _g in $PROFILE_GLOBS; do
			# A glob that matches nothing in this kernel is refused.
			echo "$_g" >>"$PROF_T/set_ftrace_filter" 2>/dev/null || true
		done
		_pn=$(grep -c '' "$PROF_T/set_ftrace_filter")
		[ "$_pn" -gt 0 ] || { fail "profile: the filter matched no function"; return 1; }
	fi
	echo "SWAPNFS-PROF-META mode=${_pmode} filtered_functions=${_pn} sleep_time=$(cat "$PROF_T/options/sleep-time" 2>/dev/null) graph_time=$(cat "$PROF_T/options/graph-time" 2>/dev/null) cpus=$(grep -c '^processor' "$PROF_PROC/cpuinfo")"
	_p_out0=$(_prof_vm pswpout) _p_in0=$(_prof_vm pswpin)
	_p_cpu0=$(_prof_cpu) _p_t0=$(cut -d' ' -f1 "$PROF_PROC/uptime")
	# Enabling resets the counters of an earlier run.
	echo 1 >"$PROF_T/function_profile_enabled" || {
		fail "profile: cannot enable the function profiler"
		return 1
	}
	info "profile: function profiler on (${_pmode})"
}

profile_stop() {
	echo 0 >"$PROF_T/function_profile_enabled"
	_p_cpu1=$(_prof_cpu) _p_t1=$(cut -d' ' -f1 "$PROF_PROC/uptime")
	# shellcheck disable=SC2086
	set -- $_p_cpu0 $_p_cpu1
	echo "SWAPNFS-PROF-VMSTAT pswpout=$(( $(_prof_vm pswpout) - _p_out0 )) pswpin=$(( $(_prof_vm pswpin) - _p_in0 )) wall_s=$(awk -v a="$_p_t0" -v b="$_p_t1" 'BEGIN { printf "%.2f", b - a }') user_ticks=$(( ${8} + ${9} - $1 - $2 )) sys_ticks=$(( ${10} + ${13} + ${14} - $3 - $6 - $7 )) idle_ticks=$(( ${11} - $4 )) iowait_ticks=$(( ${12} - $5 )) hz=100"
	for _f in "$PROF_T"/trace_stat/function*; do
		[ -f "$_f" ] || continue
		# Sorted by time, highest first: the head is what matters.
		head -n "$PROFILE_LINES" "$_f" | sed "s|^|SWAPNFS-PROF ${_f##*/} |"
	done
	echo "SWAPNFS-PROF-END"
	info "profile: function profiler off"
}
