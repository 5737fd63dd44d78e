# SPDX-License-Identifier: GPL-2.0
# The scenario library: every integration/tNNNN-*.sh sources this file,
# defines a few hooks and calls run_scenario "$@".
#
# The picture: two QEMU guests boot the kernel under test.  The server guest
# (192.0.2.1) exports an ext4 disk over NFS and NBD; the diskless client
# (192.0.2.2) mounts it, swaps to a file on it and runs the stress.  The two
# talk over QEMU's UDP socket backend on 127.0.0.1 (its TCP mode made
# swap-in 15x slower on this machine).  Each guest writes its serial console
# to results/LABEL/SCENARIO/{server,client}.log; the guest only reports
# ("SWAPNFS-..." lines) and this file decides.
#
# Hooks a scenario may define:
#   client_main    POSIX sh run in the client guest (required)
#   server_main    POSIX sh run in the server guest before nfsd starts
#   host_during    bash run on the host while the client runs; may call
#                  server_ctl, client_monitor, wait_client
# Knobs (set before run_scenario):
#   SCENARIO_DESC       one-line claim, printed in the KTAP output
#   SCENARIO_GAP        "why": the plain base is expected to fail this
#                       scenario (it demonstrates the gap); a pass on base
#                       is then a test failure, so the scenario can fail
#   NEEDS_SERVER=0      no server guest (local disk baseline)
#   LOCAL_SWAP_DISK=1   give the client a virtio swap disk (/dev/vda)
#   CLIENT_MEM, SERVER_MEM (MiB), CLIENT_SMP, STRESS_MIB, SCENARIO_TIMEOUT (s)
#   (SWAPNFS_STRESS_MIB and SWAPNFS_STRESS_PASSES in the environment set
#   the stress size and passes of every scenario that does not fix them;
#   SWAPNFS_PROFILE=1|all runs the ftrace function profiler around the
#   stress, on a kernel from scripts/kernel-build --profile: see
#   guest/profile.sh and integration/profile-stats.py;
#   SWAPNFS_SCENARIO_TIMEOUT=S replaces the scenario's SCENARIO_TIMEOUT:
#   repeated base runs of a hang need not each wait the 30 minutes that a
#   slow series pass may need, and the result records what was used)
#   (SWAPNFS_CLIENT_SYSCTL="vm.page-cluster=5 vm.min_free_kbytes=4096" in
#   the environment sets client sysctls at boot, in every scenario: for
#   experiments; the result's command line records it)
#   EXPORT_EXTRA        more export options for the server (e.g. pnfs);
#                       SWAPNFS_EXPORT_EXTRA in the environment adds to it
#                       in every scenario (experiments: "async" shows what
#                       the server's sync writes cost; never safe for swap)
#   ALLOW_LOG           extended regex of console lines that are expected
#                       here (e.g. an OOM kill in an OOM scenario)
#   CLIENT_CMDLINE_EXTRA, SERVER_CMDLINE_EXTRA
#   NFS_OPTS, GUEST_VARS  NFS_OPTS and the variables GUEST_VARS names are
#                       copied into the guests for the hook functions
#   GUEST_FUNCS         shell functions of the scenario file that the hooks
#                       call, copied into the guests with them
#   NFSROOT             mount options (e.g. vers=4.2,proto=tcp,hard): the
#                       client boots diskless, its root on the server's
#                       /export/nfsroot with the swap file at /swapfile
#   KERNEL_VARIANT=debug  run on the lockdep kernel given with
#                       --debug-kernel (or SWAPNFS_DEBUG_KERNEL); without
#                       one the scenario is skipped, never run on the
#                       plain kernel in its place
#
# Usage of a scenario file:
#   integration/t0110-swap-nfs42-stress.sh [--kernel BZIMAGE] [--label NAME]
#                                          [--debug-kernel BZIMAGE]
#                                          [--results DIR]
# --label base means "this is the plain 6.1 base" (SCENARIO_GAP applies).
# Exit status as kselftest: 0 pass, 1 fail, 4 skip.
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

: "${CLIENT_MEM:=128}" "${SERVER_MEM:=384}" "${CLIENT_SMP:=1}"
: "${NEEDS_SERVER:=1}" "${LOCAL_SWAP_DISK:=0}" "${SCENARIO_TIMEOUT:=900}"
: "${STRESS_MIB:=${SWAPNFS_STRESS_MIB:-}}" "${SCENARIO_GAP:=}" "${ALLOW_LOG:=}"
: "${CLIENT_CMDLINE_EXTRA:=}" "${SERVER_CMDLINE_EXTRA:=}" "${KERNEL_VARIANT:=}"
QEMU=${SWAPNFS_QEMU:-qemu-system-x86_64}
case ${SWAPNFS_PROFILE:-} in
''|1|all) ;;
*) die "SWAPNFS_PROFILE wants 1 or all, got '$SWAPNFS_PROFILE'" ;;
esac
for _kv in ${SWAPNFS_CLIENT_SYSCTL:-}; do
	[[ $_kv =~ ^[a-z][a-z0-9_.-]*=[A-Za-z0-9_.,:-]+$ ]] ||
		die "SWAPNFS_CLIENT_SYSCTL wants KEY=VALUE words (vm.page-cluster=5), got '$_kv'"
done
BOOT_TIMEOUT=${SWAPNFS_BOOT_TIMEOUT:-180}

# Console lines that fail any scenario: the kernel telling us it is broken.
# Lockdep reports are matched by their titles: a bare "lockdep" would also
# match the debug kernel's boot banner ("RCU lockdep checking is enabled").
PROBLEM_RE='Kernel panic|Oops|BUG:|blocked for more than [0-9]+ seconds|soft lockup|hard LOCKUP|possible circular locking|possible recursive locking|inconsistent lock state|possible irq lock inversion|suspicious RCU usage|bad unlock balance|held lock freed|DEBUG_LOCKS_WARN_ON|WARNING: CPU:|Out of memory: Killed process|general protection fault|RCU stall|rcu_sched self-detected stall'

_qemu_pids=()
_cleanup_dirs=()
_scn_cleanup() {
	local p
	for p in "${_qemu_pids[@]}"; do
		kill "$p" 2>/dev/null && sleep 0.2
		kill -9 "$p" 2>/dev/null
	done
	_qemu_pids=()
	if [ -n "${OUT:-}" ] && [ -f "$OUT/qemu.pids" ]; then
		for p in $(cat "$OUT/qemu.pids"); do
			kill "$p" 2>/dev/null && sleep 0.2
			kill -9 "$p" 2>/dev/null
		done
		rm -f "$OUT/qemu.pids"
	fi
	[ ${#_cleanup_dirs[@]} -eq 0 ] || rm -rf "${_cleanup_dirs[@]}"
}
trap _scn_cleanup EXIT
trap 'exit 130' INT TERM

# sock_dir: where the guests' UNIX sockets (monitor, server control) go.
# A socket's path must fit sun_path (108 bytes with its NUL); a results directory
# given with --results can be deeper than that (integration/repeat nests
# SCENARIO/LABEL/runI/LABEL/SCENARIO); QEMU then refuses to start.  Such
# a run gets a short directory under /tmp, removed with the guests.
sock_dir() {
	# The longest name put there is multiclient's "client12.mon"; with
	# the slash and the terminating NUL the path must fit sun_path's 108
	# bytes.
	local longest=client12.mon
	if [ $(( ${#OUT} + 1 + ${#longest} + 1 )) -le 108 ]; then
		SOCK=$OUT
	else
		SOCK=$(mktemp -d /tmp/swapnfs-sock.XXXXXX) ||
			die "$SCENARIO: cannot create a socket directory in /tmp"
		_cleanup_dirs+=("$SOCK")
		echo "$SOCK" >"$OUT/sockets"
	fi
}

# KVM here is nested and hangs guests: use it only if a probe boot of the
# real kernel reaches init within a few seconds, else TCG.  The verdict is
# cached per QEMU build; SWAPNFS_ACCEL=tcg|kvm overrides.
accel() {
	local cache=$SWAPNFS_CACHE/accel-$($QEMU --version | head -n1 | sha256sum | cut -c1-12)
	if [ -n "${SWAPNFS_ACCEL:-}" ]; then
		echo "$SWAPNFS_ACCEL"
		return
	fi
	if [ -f "$cache" ]; then
		cat "$cache"
		return
	fi
	local verdict=tcg log
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		log=$(mktemp)
		timeout 20 $QEMU -accel kvm -cpu max -m 128 -nographic \
			-no-reboot -kernel "$KERNEL" -initrd "$CLIENT_INITRD" \
			-append "console=ttyS0 panic=1 swapnfs.role=probe" \
			>"$log" 2>&1 </dev/null
		grep -q SWAPNFS-PROBE-OK "$log" && verdict=kvm
		rm -f "$log"
	fi
	note "accelerator: $verdict"
	echo "$verdict" >"$cache"
	echo "$verdict"
}

# Several clients (integration/multiclient sets MC_CLIENTS=N and the 2N
# ports MC_PORTS): clientK (K = 1..N) has its own UDP link to the server,
# MC_PORTS[2K-2] at the server's end and MC_PORTS[2K-1] at the client's;
# the server has one NIC per link, nK-1 with MAC 52:54:00:5a:KK:01
# (guest side: integration/multiclient's server_main).  $1 = server|clientK.
_mc_net_args() {
	local role=$1 k
	if [ "$role" = server ]; then
		for ((k = 1; k <= MC_CLIENTS; k++)); do
			printf '%s\n' -netdev "socket,id=n$((k - 1)),udp=127.0.0.1:${MC_PORTS[2 * k - 1]},localaddr=127.0.0.1:${MC_PORTS[2 * k - 2]}" \
				-device "virtio-net-pci,netdev=n$((k - 1)),mac=52:54:00:5a:$(printf %02x "$k"):01"
		done
	else
		k=${role#client}
		printf '%s\n' -netdev "socket,id=n0,udp=127.0.0.1:${MC_PORTS[2 * k - 2]},localaddr=127.0.0.1:${MC_PORTS[2 * k - 1]}" \
			-device "virtio-net-pci,netdev=n0,mac=52:54:00:5a:$(printf %02x "$k"):02"
	fi
}

# All QEMU arguments are assembled here.  $1 = server|client (or clientK,
# with MC_CLIENTS set: see _mc_net_args).
qemu_args() {
	local role=$1 mac port_own port_peer mem smp net
	if [ "$role" = server ]; then
		mac=52:54:00:5a:00:01 mem=$SERVER_MEM smp=1
		port_own=$PORT_SERVER port_peer=$PORT_CLIENT
	else
		mac=52:54:00:5a:00:02 mem=$CLIENT_MEM smp=$CLIENT_SMP
		port_own=$PORT_CLIENT port_peer=$PORT_SERVER
	fi
	local a=(-name "swapnfs-$role" -m "$mem" -smp "$smp" -nographic
		-no-reboot -nodefaults -vga none
		-kernel "$KERNEL" -initrd "$OUT/$role.initrd")
	if [ -n "${MC_CLIENTS:-}" ]; then
		mapfile -t net < <(_mc_net_args "$role")
		a+=("${net[@]}")
	else
		a+=(-netdev "socket,id=n0,udp=127.0.0.1:$port_peer,localaddr=127.0.0.1:$port_own"
			-device "virtio-net-pci,netdev=n0,mac=$mac")
	fi
	a+=(-serial "file:$OUT/$role.log"
		-monitor "unix:$SOCK/$role.mon,server=on,wait=off")
	if [ "$ACCEL" = kvm ]; then
		a+=(-accel kvm -cpu max)
	else
		a+=(-accel tcg,thread=multi -cpu max)
	fi
	# panic=1 plus reboot=t (triple fault: no ACPI needed) plus -no-reboot
	# make a crashed guest's QEMU exit at once.  no_timer_check: on a
	# loaded host the IO-APIC timer probe under TCG can miss its window
	# and panic the boot ("IO-APIC + timer doesn't work").
	local cmdline="console=ttyS0 no_timer_check panic=1 reboot=t oops=panic softlockup_panic=1 hung_task_panic=1 swapnfs.role=${role%%[0-9]*}"
	if [ "$role" = server ]; then
		a+=(-drive "file=$OUT/export.img,format=raw,if=virtio,cache=unsafe"
			-chardev "socket,id=ctl,path=$SOCK/server.ctl,server=on,wait=off"
			-serial chardev:ctl)
		cmdline+=" $SERVER_CMDLINE_EXTRA"
	else
		[ "$LOCAL_SWAP_DISK" = 1 ] &&
			a+=(-drive "file=$OUT/localswap.img,format=raw,if=virtio,cache=unsafe")
		cmdline+=" swapnfs.stress_mib=$STRESS_MIB swapnfs.stress_passes=${SWAPNFS_STRESS_PASSES:-}"
		# The ftrace function profiler around the stress (1 or all;
		# needs scripts/kernel-build --profile): guest/profile.sh.
		[ -z "${SWAPNFS_PROFILE:-}" ] || cmdline+=" swapnfs.profile=$SWAPNFS_PROFILE"
		# SWAPNFS_CLIENT_SYSCTL="vm.page-cluster=5 ...": the kernel
		# applies sysctl.KEY=VALUE from its command line at boot, before
		# init, so an experiment needs no change to any scenario.
		local kv
		for kv in ${SWAPNFS_CLIENT_SYSCTL:-}; do
			cmdline+=" sysctl.$kv"
		done
		cmdline+=" $CLIENT_CMDLINE_EXTRA"
	fi
	a+=(-append "$cmdline")
	printf '%s\n' "${a[@]}"
}

guest_start() {
	local role=$1 args
	mapfile -t args < <(qemu_args "$role")
	printf "%q " "$QEMU" "${args[@]}" >"$OUT/$role.cmd"
	$QEMU "${args[@]}" </dev/null >"$OUT/$role.qemu.log" 2>&1 &
	_qemu_pids+=($!)
	eval "PID_${role^^}=$!"
	# Guests are watched with kill -0 and ended by _scn_cleanup; no
	# "Killed" job notice when server_reboot powers one off.
	disown $!
}

# wait_log ROLE REGEX TIMEOUT: poll the console log; fails early if QEMU is
# gone.  Never a bare sleep.
wait_log() {
	local role=$1 re=$2 t=$3 pidvar=PID_${1^^}
	local pid=${!pidvar} end=$(( $(now) + t ))
	while [ "$(now)" -lt "$end" ]; do
		grep -qE "$re" "$OUT/$role.log" 2>/dev/null && return 0
		# A panicked guest will never print the marker.
		grep -q 'Kernel panic - not syncing' "$OUT/$role.log" 2>/dev/null && return 3
		kill -0 "$pid" 2>/dev/null || {
			grep -qE "$re" "$OUT/$role.log" 2>/dev/null && return 0
			return 2
		}
		sleep 0.5
	done
	return 1
}
wait_client() { wait_log client "$1" "${2:-$SCENARIO_TIMEOUT}"; }

_ctl_seq=0
# Run a shell command in the server guest; prints its output, returns its
# status (124 when it did not answer in time).
server_ctl() {
	_ctl_seq=$((_ctl_seq + 1))
	"$SWAPNFS_TOP/scripts/sockctl.py" serial "$SOCK/server.ctl" "c$_ctl_seq" "$1" "${2:-120}"
}
client_monitor() { "$SWAPNFS_TOP/scripts/sockctl.py" monitor "$SOCK/client.mon" "$1"; }

# guest_sysrq GUEST KEY...: press alt-sysrq-KEY on GUEST (the name of its
# monitor socket: client, server, client2, ...), so that its kernel
# prints into the console log (w: blocked tasks, m: memory).  Used when
# a guest looks hung, just before it is torn down: a guest that is
# already gone is no error.
guest_sysrq() {
	local g=$1 k
	shift
	for k in "$@"; do
		"$SWAPNFS_TOP/scripts/sockctl.py" monitor "$SOCK/$g.mon" "sendkey alt-sysrq-$k" >/dev/null 2>&1
	done
	return 0
}

# wait_deep_in_swap [TIMEOUT]: return once the stress has most of its first
# pass written (pages are out on swap and every later read comes back from
# it) or is past that pass.  Fault scenarios strike here.
wait_deep_in_swap() {
	wait_client 'seq write\+verify: ([6-9][0-9]|100)%|random verify|final verify' "${1:-600}"
}

# server_reboot [DOWN_S]: power the server guest off without warning (no
# sync, no unexport: a crash as the client sees it), keep it off DOWN_S
# seconds, boot it again on the same disk and wait until it serves.  The
# old console log is kept as server.boot1.log (and so on) and is scanned
# for kernel problems like the live one.
_server_boots=1
server_reboot() {
	local down=${1:-10}
	kill -9 "$PID_SERVER" 2>/dev/null
	wait "$PID_SERVER" 2>/dev/null
	mv "$OUT/server.log" "$OUT/server.boot$_server_boots.log"
	_server_boots=$((_server_boots + 1))
	sleep "$down"
	guest_start server
	# host_during runs in a subshell: tell the parent's cleanup about
	# the new QEMU.
	echo "$PID_SERVER" >>"$OUT/qemu.pids"
	wait_log server 'SWAPNFS-SERVER-READY|SWAPNFS-RESULT fail' "$BOOT_TIMEOUT" &&
		! grep -q 'SWAPNFS-RESULT fail' "$OUT/server.log"
}

# Lines of a console log that show the kernel in trouble.
log_problems() {
	local f=$1
	[ -f "$f" ] || return 0
	if [ -n "$ALLOW_LOG" ]; then
		grep -E "$PROBLEM_RE" "$f" | grep -vE "$ALLOW_LOG"
	else
		grep -E "$PROBLEM_RE" "$f"
	fi
}

_payload() {
	local dir=$OUT/payload
	if [ -n "${SWAPNFS_EXPORT_EXTRA:-}" ]; then
		EXPORT_EXTRA=${EXPORT_EXTRA:+$EXPORT_EXTRA,}$SWAPNFS_EXPORT_EXTRA
		note "export options: +$EXPORT_EXTRA (SWAPNFS_EXPORT_EXTRA)"
	fi
	mkdir -p "$dir"
	{
		echo "# generated from $SCENARIO"
		# Settings the guest functions read (NFS_OPTS from a shared
		# .inc body, and any named in GUEST_VARS), single-quoted.
		local v
		for v in NFS_OPTS NFSROOT EXPORT_EXTRA ${GUEST_VARS:-}; do
			[ -n "${!v+set}" ] || continue
			printf "%s='%s'\n" "$v" "$(printf '%s' "${!v}" | sed "s/'/'\\\\''/g")"
		done
		declare -f client_main server_main ${GUEST_FUNCS:-} 2>/dev/null
	} >"$dir/scenario.sh"
	(cd "$dir" && echo scenario.sh | cpio -o -H newc --quiet -R 0:0 | gzip) >"$OUT/payload.cpio.gz"
}

# NFSROOT: the server unpacks the client's root from archives the host
# adds to its initrd under /nfsroot (guest/server.sh): the client image,
# the tools only the NFS root carries (scripts/images), the scenario.
_nfsroot_archive() {
	local dir=$OUT/nfsroot-stage
	mkdir -p "$dir/nfsroot" &&
		cp "$CLIENT_INITRD" "$dir/nfsroot/1-image.cpio.gz" &&
		cp "$(dirname "$CLIENT_INITRD")/nfsroot-tools.cpio.gz" "$dir/nfsroot/2-tools.cpio.gz" &&
		cp "$OUT/payload.cpio.gz" "$dir/nfsroot/3-scenario.cpio.gz" ||
		die "$SCENARIO: cannot stage the NFS root archives in $dir"
	(cd "$dir" && find nfsroot | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) \
		>>"$OUT/server.initrd" || die "$SCENARIO: cannot add the NFS root to the server's initrd"
	rm -rf "$dir"
}

_default_kernel() {
	local wt
	wt=$("$SWAPNFS_TOP/scripts/worktree" base) || exit 1
	"$SWAPNFS_TOP/scripts/kernel-build" --quiet "$wt" || exit 1
}

# --- run_scenario and its phases ---------------------------------------
# run_scenario "$@": options, then boot (server, then client and
# host_during), wait (for the client's result, a timeout or a panic),
# verdict (status and reason from the logs, xfail/xpass on base) and
# report (result file, KTAP lines, exit status).  The phases share these
# globals: OUT, LABEL, STATUS, REASON, TIMED_OUT, PROBLEMS, OUTCOME.

# _scn_options ARGS...: sets KERNEL, DEBUG_KERNEL, LABEL, RESULTS.
_scn_options() {
	LABEL=run RESULTS=${SWAPNFS_RESULTS:-$SWAPNFS_TOP/results}
	KERNEL=${SWAPNFS_KERNEL:-}
	DEBUG_KERNEL=${SWAPNFS_DEBUG_KERNEL:-}
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel) opt_value "$SCENARIO" "$@"; KERNEL=$2; shift ;;
		--debug-kernel) opt_value "$SCENARIO" "$@"; DEBUG_KERNEL=$2; shift ;;
		--label) opt_value "$SCENARIO" "$@"; LABEL=$2; shift ;;
		--results) opt_value "$SCENARIO" "$@"; RESULTS=$2; shift ;;
		-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
		*) die "$SCENARIO: unknown argument '$1'" ;;
		esac
		shift
	done
	plain_name "$SCENARIO" --label "$LABEL"
	[ -z "$KERNEL" ] || [ -f "$KERNEL" ] || die "$SCENARIO: kernel image $KERNEL not found"
	[ -z "$DEBUG_KERNEL" ] || [ -f "$DEBUG_KERNEL" ] ||
		die "$SCENARIO: debug kernel image $DEBUG_KERNEL not found"
	RESULTS=$(results_dir "$SCENARIO" "$RESULTS") || exit 1
}

# _scn_prepare: kernel, images, the output directory, the initrds, ports.
_scn_prepare() {
	need_cmd $QEMU cpio gzip python3
	declare -F client_main >/dev/null || die "$SCENARIO: no client_main defined"
	if [ -n "${SWAPNFS_SCENARIO_TIMEOUT:-}" ]; then
		[[ $SWAPNFS_SCENARIO_TIMEOUT =~ ^[1-9][0-9]*$ ]] ||
			die "$SCENARIO: SWAPNFS_SCENARIO_TIMEOUT wants seconds, got '$SWAPNFS_SCENARIO_TIMEOUT'"
		SCENARIO_TIMEOUT=$SWAPNFS_SCENARIO_TIMEOUT
	fi
	[ -n "$KERNEL" ] || KERNEL=$(_default_kernel) || exit 1
	[ -f "$KERNEL" ] || die "$SCENARIO: kernel image $KERNEL not found"
	local imgs
	imgs=$("$SWAPNFS_TOP/scripts/images") || exit 1
	read -r SERVER_INITRD CLIENT_INITRD EXPORT_IMG <<<"$imgs"
	OUT=$RESULTS/$LABEL/$SCENARIO
	rm -rf "$OUT" && mkdir -p "$OUT" || die "$SCENARIO: cannot create $OUT"
	sock_dir
	ACCEL=$(accel)
	_payload
	cat "$SERVER_INITRD" "$OUT/payload.cpio.gz" >"$OUT/server.initrd"
	cat "$CLIENT_INITRD" "$OUT/payload.cpio.gz" >"$OUT/client.initrd"
	[ -z "${NFSROOT:-}" ] || _nfsroot_archive
	read -r PORT_SERVER PORT_CLIENT <<<"$("$SWAPNFS_TOP/scripts/sockctl.py" ports 2)"
}

# _scn_boot_server: boot the server guest and wait until it serves.
# Sets STATUS/REASON when it does not.
_scn_boot_server() {
	local rc
	[ "$NEEDS_SERVER" = 1 ] || return 0
	cp --sparse=always "$EXPORT_IMG" "$OUT/export.img"
	_cleanup_dirs+=("$OUT/export.img")
	note "$SCENARIO: booting server guest"
	guest_start server
	wait_log server 'SWAPNFS-SERVER-READY|SWAPNFS-RESULT fail' "$BOOT_TIMEOUT"
	rc=$?
	case $rc in
	1) STATUS=fail REASON="server guest never became ready (waited ${BOOT_TIMEOUT}s)" ;;
	2) STATUS=fail REASON="server guest never became ready (QEMU exited)" ;;
	3) STATUS=fail REASON="server kernel panicked while starting" ;;
	esac
	if grep -q 'SWAPNFS-RESULT fail' "$OUT/server.log"; then
		STATUS=fail
		REASON="server guest: $(sed -n 's/.*SWAPNFS-RESULT fail //p' "$OUT/server.log" | head -n1 | tr -d '\r')"
	fi
}

# _scn_boot_client: boot the client guest and start host_during.
_scn_boot_client() {
	[ "$LOCAL_SWAP_DISK" = 1 ] && {
		cp --sparse=always "$(dirname "$EXPORT_IMG")/localswap.img" "$OUT/localswap.img"
		_cleanup_dirs+=("$OUT/localswap.img")
	}
	note "$SCENARIO: booting client guest (${CLIENT_MEM} MiB)"
	CLIENT_T0=$(now)
	guest_start client
	DURING_PID=
	if declare -F host_during >/dev/null; then
		# The subshell writes its own exit status: what `wait` says
		# about it can be lost (a t0550 run that passed in the client
		# failed "host_during failed" after a clean last line).
		rm -f "$OUT/host_during.rc"
		# (Two subshells: host_during may set its own EXIT trap.)
		( (host_during); echo $? >"$OUT/host_during.rc" ) \
			>"$OUT/host_during.log" 2>&1 &
		DURING_PID=$!
	fi
}

# _kill_tree PID: PID and every process below it, children first.
_kill_tree() {
	local c
	for c in $(pgrep -P "$1"); do _kill_tree "$c"; done
	kill "$1" 2>/dev/null
}

# _scn_wait: wait for the client's SWAPNFS-RESULT line, a timeout (the
# kernel is then asked for its blocked tasks and memory first) or a panic.
_scn_wait() {
	local rc drc pid_c=$PID_CLIENT i
	wait_log client 'SWAPNFS-RESULT' "$SCENARIO_TIMEOUT"
	rc=$?
	echo "client_s=$(( $(now) - CLIENT_T0 ))" >>"$OUT/result.figures"
	if [ -n "$DURING_PID" ]; then
		# A client that hung or panicked will not answer host_during,
		# which could sit in its own waits for many minutes more: stop
		# it.  The timeout or the panic is the verdict then.
		{ [ $rc = 1 ] || [ $rc = 3 ]; } && _kill_tree "$DURING_PID"
		wait "$DURING_PID"
		drc=$?
		[ -s "$OUT/host_during.rc" ] && drc=$(cat "$OUT/host_during.rc")
		[ "$drc" = 0 ] ||
			{ STATUS=fail; REASON="host_during failed (exit $drc): $(tail -n1 "$OUT/host_during.log")"; }
	fi
	if [ $rc = 1 ]; then
		# Stuck: sysrq-w (blocked tasks) and sysrq-m (memory) into the
		# console log before tearing it down.
		guest_sysrq client w m
		sleep 3
	fi
	case $rc in
	1) STATUS=fail TIMED_OUT=1 REASON="client did not finish within ${SCENARIO_TIMEOUT}s (hang?)" ;;
	# A guest that host_during stopped keeps host_during's reason.
	2) grep -q SWAPNFS-RESULT "$OUT/client.log" || [ -n "$REASON" ] ||
		{ STATUS=fail REASON="client guest ended without a result"; } ;;
	3) STATUS=fail REASON="client kernel panicked" ;;
	esac
	# Give the client a moment to power off by itself.
	for i in $(seq 20); do kill -0 "$pid_c" 2>/dev/null || break; sleep 0.5; done
}

# _scn_verdict: the figures, the client's own verdict, kernel problems in
# any console log, and what the status means on this label (OUTCOME).
_scn_verdict() {
	local f verdict infra
	touch "$OUT/client.log"
	sed -n 's/.*SWAPNFS-FIGURE \([A-Za-z0-9_]*=[^ ]*\).*/\1/p' "$OUT/client.log" |
		tr -d '\r' >>"$OUT/result.figures"
	echo "alloc_failures=$(cat "$OUT"/*.log 2>/dev/null | grep -c 'page allocation failure')" >>"$OUT/result.figures"
	verdict=$(tr -d '\r' <"$OUT/client.log" 2>/dev/null | sed -n 's/.*SWAPNFS-RESULT //p' | tail -n1)
	if [ -z "$STATUS" ]; then
		case $verdict in
		pass*) STATUS=pass ;;
		skip*) STATUS=skip REASON=${verdict#skip } ;;
		*) STATUS=fail REASON=${verdict#fail } ;;
		esac
	fi
	PROBLEMS=$( (for f in "$OUT"/server.boot*.log "$OUT/server.log"; do
			log_problems "$f"
		done | sed 's/^/server: /'
		    log_problems "$OUT/client.log" | sed 's/^/client: /') | tr -d '\r' | head -n 8)
	if [ -n "$PROBLEMS" ] && [ "$STATUS" != fail ]; then
		STATUS=fail
		REASON="kernel reported a problem: $(echo "$PROBLEMS" | head -n1)"
	elif [ -n "$PROBLEMS" ]; then
		REASON="$REASON; kernel: $(echo "$PROBLEMS" | head -n1)"
	fi
	# On the plain base a gap scenario is expected to fail (xfail); a
	# pass there is an unexpected pass (xpass), which fails the test: the
	# scenario does not show what it claims.  A server that never came up
	# says nothing about the client kernel: it never counts as the gap.
	OUTCOME=$STATUS
	case $REASON in "server guest"*|"server kernel"*) infra=1 ;; *) infra= ;; esac
	if [ "$LABEL" = base ] && [ -n "$SCENARIO_GAP" ] && [ -z "$infra" ]; then
		case $STATUS in
		fail) OUTCOME=xfail ;;
		pass) OUTCOME=xpass REASON="expected the gap on base ($SCENARIO_GAP) but the scenario passed" ;;
		esac
	fi
}

# _scn_report: the result file, the KTAP lines, and the exit status
# (kselftest: 0 pass or xfail, 1 fail or xpass, 4 skip).  A hang is
# "not ok ... # TIMEOUT N seconds", as kselftest's runner prints it.
_scn_report() {
	local status=$OUTCOME
	[ "$status" = xpass ] && status=fail
	{
		echo "scenario=$SCENARIO"
		echo "label=$LABEL"
		echo "status=$status"
		echo "raw=$STATUS"
		echo "outcome=$OUTCOME"
		[ -z "$TIMED_OUT" ] || echo "timeout=$SCENARIO_TIMEOUT"
		echo "reason=$REASON"
		cat "$OUT/result.figures"
	} >"$OUT/result"
	rm -f "$OUT/result.figures"
	grep -E '^(elapsed_ms|mismatches|pswpout|pswpin|client_s)=' "$OUT/result" | sed 's/^/# figure /'
	case $OUTCOME in
	pass) echo "ok 1 $SCENARIO"; return 0 ;;
	xfail) echo "ok 1 $SCENARIO # XFAIL gap on base: $REASON"; return 0 ;;
	skip) echo "ok 1 $SCENARIO # SKIP $REASON"; return 4 ;;
	esac
	if [ -n "$TIMED_OUT" ]; then
		echo "not ok 1 $SCENARIO # TIMEOUT $SCENARIO_TIMEOUT seconds"
	else
		echo "not ok 1 $SCENARIO"
	fi
	[ "$OUTCOME" = xpass ] && echo "# XPASS $SCENARIO [$LABEL]: $REASON"
	echo "# FAIL $SCENARIO [$LABEL]: $REASON"
	[ -n "$PROBLEMS" ] && echo "$PROBLEMS" | sed 's/^/#   /'
	echo "# last client console lines ($OUT/client.log):"
	tr -d '\r' <"$OUT/client.log" 2>/dev/null | tail -n 15 | sed 's/^/#   /'
	[ "$NEEDS_SERVER" = 1 ] && {
		echo "# last server console lines ($OUT/server.log):"
		tr -d '\r' <"$OUT/server.log" 2>/dev/null | tail -n 8 | sed 's/^/#   /'
	}
	return 1
}

# A scenario of the lockdep kernel without one: nothing runs, and the
# result says so (a table shows "skip", never a stale pass).
_scn_skip_no_debug_kernel() {
	OUT=$RESULTS/$LABEL/$SCENARIO
	rm -rf "$OUT" && mkdir -p "$OUT" || die "$SCENARIO: cannot create $OUT"
	printf 'scenario=%s\nlabel=%s\nstatus=skip\nraw=skip\noutcome=skip\nreason=%s\n' \
		"$SCENARIO" "$LABEL" "no debug kernel given (--debug-kernel)" >"$OUT/result"
	echo "TAP version 13"
	echo "1..1"
	echo "ok 1 $SCENARIO # SKIP no debug kernel given (--debug-kernel; scripts/kernel-build --debug TREE builds one)"
	return 4
}

run_scenario() {
	SCENARIO=$(basename "$0" .sh)
	STATUS= REASON= TIMED_OUT= PROBLEMS= OUTCOME=
	local t0
	_scn_options "$@"
	if [ "$KERNEL_VARIANT" = debug ]; then
		[ -n "$DEBUG_KERNEL" ] || { _scn_skip_no_debug_kernel; return; }
		KERNEL=$DEBUG_KERNEL
	fi
	_scn_prepare
	echo "TAP version 13"
	echo "1..1"
	echo "# $SCENARIO [$LABEL] ${SCENARIO_DESC:-}"
	echo "# kernel $KERNEL, accel $ACCEL, logs in $OUT"
	t0=$(now)
	_scn_boot_server
	if [ -z "$STATUS" ]; then
		_scn_boot_client
		_scn_wait
	fi
	_scn_cleanup
	echo "elapsed_s=$(( $(now) - t0 ))" >>"$OUT/result.figures"
	_scn_verdict
	_scn_report
}

# fault_scenario FAULT VERS ARGS...: run the fault defined once, for every
# protocol, in integration/fault-FAULT.inc, over NFS version VERS (3 or
# 4.2), as dracut's TEST-20-NFS runs one test over its NFS variants.  The
# .inc reads NFS_VERS and NFS_OPTS (vers=VERS,proto=tcp,hard, which it may
# extend) and sets SCENARIO_DESC and the hooks.  Each protocol keeps its
# own scenario file (number, name and tags: CI runs some on one protocol
# only); the name must carry the protocol it runs (-nfs3 or -nfs42), as the
# fault matrix (scripts/integrate --matrix) reads it from there.
fault_scenario() {
	local fault=$1 inc tok me
	me=$(basename "$0" .sh)
	[ $# -ge 2 ] || die "$me: usage: fault_scenario FAULT VERS [ARGS...]"
	NFS_VERS=$2
	shift 2
	inc=$SWAPNFS_TOP/integration/fault-$fault.inc
	[ -f "$inc" ] || die "$me: no fault definition $inc"
	case $NFS_VERS in
	3) tok=nfs3 ;;
	4.2) tok=nfs42 ;;
	*) die "$me: NFS version '$NFS_VERS' (3 or 4.2)" ;;
	esac
	case $me in
	*-$tok|*-$tok-*) ;;
	*) die "$me: runs NFS version $NFS_VERS, but its name does not say -$tok" ;;
	esac
	NFS_OPTS=vers=$NFS_VERS,proto=tcp,hard
	. "$inc"
	[ "$KERNEL_VARIANT" = debug ] &&
		SCENARIO_DESC="lockdep kernel: $SCENARIO_DESC; no lockdep report"
	run_scenario "$@"
}
