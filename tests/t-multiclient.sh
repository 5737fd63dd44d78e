#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# integration/multiclient without guests: the single-client QEMU arguments
# are byte for byte those of before N clients (fixtures made from lib.sh
# before the change); N clients get one link each, paired with the
# server's NICs; bad input is one line; and whole runs against a fake QEMU
# (tests/fixtures/multiclient/fake-qemu) give the per-client figures,
# the slowdown table, and fail on a bad page, a stall, a hang and a panic.
. "$(dirname "$0")/lib.sh"
echo "TAP version 13"

fx=tests/fixtures/multiclient
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"

# args_of CONFIG ROLE: qemu_args of integration/lib.sh for fixed inputs.
args_of() {
	env -i PATH="$PATH" HOME="$HOME" CONF=$1 ROLE=$2 MC=${3:-} bash -c '
		. integration/lib.sh; trap - EXIT
		KERNEL=/k/bzImage OUT=/o PORT_SERVER=40001 PORT_CLIENT=40002
		sock_dir
		case $CONF in
		plain) ACCEL=tcg ;;
		knobs) ACCEL=kvm LOCAL_SWAP_DISK=1 STRESS_MIB=160 SWAPNFS_STRESS_PASSES=1
		       SWAPNFS_PROFILE=1 CLIENT_MEM=192 SERVER_MEM=512 CLIENT_SMP=2
		       CLIENT_CMDLINE_EXTRA="a=1 b" SERVER_CMDLINE_EXTRA="nfsd.x=2" ;;
		esac
		[ -z "$MC" ] || { MC_CLIENTS=$MC; MC_PORTS=($(seq 50001 $((50000 + 2 * MC)))); }
		qemu_args "$ROLE"'
}

expect_success 'single client: server and client QEMU arguments unchanged, byte for byte' '
	for c in plain knobs; do
		for r in server client; do
			args_of $c $r >$tmp/args || exit 1
			cmp $tmp/args $fx/qemu-args-$c-$r || { diff $fx/qemu-args-$c-$r $tmp/args; exit 1; }
		done
	done
'

expect_success 'SWAPNFS_CLIENT_SYSCTL: sysctl.KEY=VALUE on the client command line only; a bad word refused' '
	env -i PATH="$PATH" HOME="$HOME" SWAPNFS_CLIENT_SYSCTL="vm.page-cluster=5 vm.swappiness=100" bash -c "
		. integration/lib.sh; trap - EXIT
		KERNEL=/k/bzImage OUT=/o PORT_SERVER=1 PORT_CLIENT=2 ACCEL=tcg
		sock_dir && qemu_args client >$tmp/c && qemu_args server >$tmp/s" &&
	grep -q "swapnfs.role=client.* sysctl.vm.page-cluster=5 sysctl.vm.swappiness=100" $tmp/c &&
	! grep -q sysctl $tmp/s &&
	! env -i PATH="$PATH" HOME="$HOME" SWAPNFS_CLIENT_SYSCTL="vm.page-cluster=5 ;reboot" \
		bash -c ". integration/lib.sh" 2>$tmp/err &&
	grep -qx "swapnfs: ERROR: SWAPNFS_CLIENT_SYSCTL wants KEY=VALUE words (vm.page-cluster=5), got .;reboot." $tmp/err
'

# integration/repeat nests results deep enough that OUT/server.mon is past
# sun_path: QEMU refused to start ("UNIX socket path ... is too long").
expect_success 'a results directory too deep for a UNIX socket: sockets in a short directory' '
	long=$tmp/$(printf "d%.0s" $(seq 90))/series/t0520-nfs4-server-restart-in-swap &&
	mkdir -p "$long" &&
	env -i PATH="$PATH" HOME="$HOME" OUT="$long" bash -c "
		. integration/lib.sh
		KERNEL=/k/bzImage PORT_SERVER=1 PORT_CLIENT=2 ACCEL=tcg SCENARIO=x
		sock_dir && [ -d \"\$SOCK\" ] && echo \"\$SOCK\" >$tmp/sock &&
		qemu_args server && qemu_args client" >$tmp/args &&
	grep -o "unix:[^,]*\|path=[^,]*" $tmp/args >$tmp/paths &&
	[ "$(wc -l <$tmp/paths)" = 3 ] &&
	! awk "{ sub(/^(unix:|path=)/, \"\"); if (length(\$0) > 107) bad = 1 } END { exit !bad }" $tmp/paths &&
	[ "$(cat $tmp/sock)" != "$long" ] && ! [ -e "$(cat $tmp/sock)" ] &&
	grep -qx "$(cat $tmp/sock)" "$long/sockets" &&
	env -i PATH="$PATH" HOME="$HOME" OUT=/o bash -c ". integration/lib.sh; trap - EXIT; sock_dir; echo \$SOCK" >$tmp/short &&
	[ "$(cat $tmp/short)" = /o ]
'

expect_success 'the comparison can fail: a changed argument is caught' '
	args_of plain client | sed "s/mac=52:54:00:5a:00:02/mac=52:54:00:5a:01:02/" >$tmp/args &&
	! cmp -s $tmp/args $fx/qemu-args-plain-client
'

expect_success 'three clients: one NIC per client on the server, each paired with its client' '
	args_of plain server 3 >$tmp/srv &&
	[ "$(grep -c "^-netdev$" $tmp/srv)" = 3 ] &&
	for k in 1 2 3; do
		args_of plain client$k 3 >$tmp/c$k || exit 1
		own=$(( 50000 + 2 * k )) peer=$(( 50000 + 2 * k - 1 ))
		grep -qx "socket,id=n0,udp=127.0.0.1:$peer,localaddr=127.0.0.1:$own" $tmp/c$k &&
		grep -qx "socket,id=n$((k - 1)),udp=127.0.0.1:$own,localaddr=127.0.0.1:$peer" $tmp/srv &&
		grep -qx "virtio-net-pci,netdev=n0,mac=52:54:00:5a:0$k:02" $tmp/c$k &&
		grep -qx "virtio-net-pci,netdev=n$((k - 1)),mac=52:54:00:5a:0$k:01" $tmp/srv &&
		grep -qx "swapnfs-client$k" $tmp/c$k &&
		grep -qx "file:/o/client$k.log" $tmp/c$k &&
		grep -qx "/o/client$k.initrd" $tmp/c$k &&
		grep -q " swapnfs.role=client " $tmp/c$k || exit 1
	done &&
	[ "$(cat $tmp/srv $tmp/c1 $tmp/c2 $tmp/c3 | grep -o "localaddr=127.0.0.1:[0-9]*" | sort | uniq -d)" = "" ]
'

# refused REASON ARGS...: multiclient exits 1 with the one line REASON.
refused() {
	local why=$1 out rc
	shift
	out=$(timeout 60 integration/multiclient "$@" 2>&1 </dev/null)
	rc=$?
	[ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] &&
		grep -qE "^swapnfs: ERROR: multiclient: $why" <<<"$out" && return 0
	echo "# multiclient $* -> exit $rc: $out"
	return 1
}

expect_success 'bad input: one line, exit 1, nothing run' '
	refused "--clients wants client counts from 1 to 16, got .0." --clients 0 &&
	refused "--clients wants client counts from 1 to 16, got .17." --clients 1,17 &&
	refused "--clients wants client counts .* got .1,,2." --clients 1,,2 &&
	refused "--clients wants client counts .* got .two." --clients two &&
	refused "--clients needs a value\$" --clients &&
	refused "--clients needs a value, got an empty one\$" --clients "" &&
	refused "--proto needs a value, got the option .--label.\$" --proto --label x &&
	refused "unknown protocol .nfs3. in --proto \(nfs42, nbd\)\$" --proto nfs42,nfs3 &&
	refused "--nfsd-threads wants a positive integer, got .0." --nfsd-threads 0 &&
	refused "--mib wants a positive integer, got .x." --mib x &&
	refused "--label .\.\./x. is not a plain name" --label ../x &&
	refused "kernel image $tmp/none not found" --kernel "$tmp/none" &&
	refused "unknown argument .--nope." --nope &&
	refused "no multiclient runs in $tmp/empty/run/multiclient" --table --results $tmp/empty &&
	[ ! -e $tmp/empty ]
'

# mc RES ARGS...: a run against the fake QEMU (tiny swap files, no real
# kernel: the fake boots nothing).
mc() {
	local res=$1
	shift
	SWAPNFS_QEMU=$PWD/$fx/fake-qemu SWAPNFS_ACCEL=tcg SWAPNFS_MC_SWAP_MIB=1 \
		SWAPNFS_RESULTS_MD=$res.md \
		integration/multiclient --kernel /etc/hostname --results "$res" --mib 128 "$@"
}

expect_success 'fake runs, N=1,2,4 x nfs42,nbd: every client passes, the table has the slowdowns' '
	out=$(mc $tmp/r --clients 1,2,4 --label fake --nfsd-threads 16 --stop-nbd-server 2>$tmp/err) &&
	b=$tmp/r/fake/multiclient &&
	grep -qx "1\.\.6" <<<"$out" &&
	[ "$(grep -c "^ok [1-6] " <<<"$out")" = 6 ] &&
	grep -q "^ok 5 nfs42-n4 # pass: 4 client(s), mean stress 25.0 s" <<<"$out" &&
	bad= &&
	for k in 1 2 3 4; do
		grep -qx "status=pass" $b/nfs42-n4/client$k.result &&
		grep -qx "stress_s=25.0" $b/nfs42-n4/client$k.result &&
		grep -qx "pages_ok=40960" $b/nfs42-n4/client$k.result &&
		grep -qx "mismatches=0" $b/nfs42-n4/client$k.result &&
		grep -qx "stalled=no" $b/nfs42-n4/client$k.result ||
		{ bad=1; echo "client$k:"; cat $b/nfs42-n4/client$k.result; }
	done && [ -z "$bad" ] &&
	grep -qE "^nfs42 +4 +3 +25\.0 +2\.50 +40960 +0 +5  pass$" <<<"$out" &&
	grep -qE "^nbd +2 +2 +12\.0 +1\.50 +40960 +0 +5  pass$" <<<"$out" &&
	grep -qE "^nfs42 +4 +25\.0 +2\.50 +2\.50 +60 +60 +16 " <<<"$out" &&
	grep -qx "NFS/NBD (mean per-client stress time): N=1 1.25, N=2 1.25, N=4 1.25" <<<"$out" &&
	grep -q "^goal (NFSv4.2, N=4: .*): not met (worst 2.50x, pass)$" <<<"$out" &&
	cmp <(sed -n "/^# multiclient \[fake\]: /,\$p" <<<"$out") $b/table.txt &&
	grep -qx "nfsd_threads=16" $b/nbd-n2/result &&
	grep -q "fake: nbd-server stopped" $b/nfs42-n2/server.log &&
	! grep -q "fake: nbd-server stopped" $b/nbd-n2/server.log &&
	grep -q "SWAPNFS-INFO multiclient: 4 links" $b/nbd-n4/server.log &&
	grep -qx "client4_ready=1" $b/nbd-n4/host.txt &&
	grep -qx "timeout_s=900" $b/nfs42-n1/host.txt &&
	grep -qx "timeout_s=1024" $b/nfs42-n2/host.txt &&
	! ls $b/*/export.img 2>/dev/null
'

expect_success 'the table goes into its RESULTS.md section with the command' '
	sed -n "/^<!-- BEGIN results:multiclient-fake -->/,/^<!-- END results:multiclient-fake -->/p" $tmp/r.md >$tmp/sec &&
	grep -q "^## Several clients (integration/multiclient, label fake)$" $tmp/sec &&
	grep -q "^- command: .*integration/multiclient .*--clients 1,2,4 --label fake --nfsd-threads 16" $tmp/sec &&
	grep -q "^- machine: .*accel tcg," $tmp/sec &&
	grep -qx "NFS/NBD (mean per-client stress time): N=1 1.25, N=2 1.25, N=4 1.25" $tmp/sec
'

expect_success '--table reprints the table from the results, running nothing' '
	out2=$(SWAPNFS_QEMU=/nonexistent integration/multiclient --table --label fake --results $tmp/r) &&
	cmp <(echo "$out2") $tmp/r/fake/multiclient/table.txt &&
	grep -qE "^nbd +4 " <<<"$out2"
'

expect_success 'a client with bad pages fails its run and the exit status' '
	! out=$(FAKE_MC=nfs42-n2:2:bad mc $tmp/bad --clients 2 --proto nfs42 2>/dev/null) &&
	grep -q "^not ok 1 nfs42-n2 # fail: .*client 2: client: fail swapstress exited 1" <<<"$out" &&
	grep -qx "mismatches=3" $tmp/bad/run/multiclient/nfs42-n2/client2.result &&
	grep -qx "bad_pages=3" $tmp/bad/run/multiclient/nfs42-n2/result &&
	grep -qx "status=pass" $tmp/bad/run/multiclient/nfs42-n2/client1.result
'

expect_success 'a client whose progress stands still 95 s is a stall' '
	! out=$(FAKE_MC=nbd-n2:1:stall mc $tmp/st --clients 2 --proto nbd 2>/dev/null) &&
	grep -q "^not ok 1 nbd-n2 # .*client 1: progress stood still 95 s" <<<"$out" &&
	grep -qx "stalled=yes" $tmp/st/run/multiclient/nbd-n2/client1.result &&
	grep -qx "stall_max_s=95" $tmp/st/run/multiclient/nbd-n2/client1.result &&
	grep -qE "^nbd +2 +1 .* fail STALL$" <<<"$out"
'

expect_success 'a hung client is timed out, asked for sysrq-w and -m, and torn down' '
	! out=$(FAKE_MC=nfs42-n2:2:hang SCENARIO_TIMEOUT=4 mc $tmp/h --clients 2 --proto nfs42 2>/dev/null) &&
	d=$tmp/h/run/multiclient/nfs42-n2 &&
	grep -q "^not ok 1 nfs42-n2 # .*client 2: no result within 4 s (hang)" <<<"$out" &&
	grep -qx "client2_end=timeout" $d/host.txt &&
	grep -qx "sendkey alt-sysrq-w" $d/client2.monitor &&
	grep -qx "sendkey alt-sysrq-m" $d/client2.monitor &&
	grep -q "sysrq: Show Blocked State" $d/client2.log &&
	grep -qE "^nfs42 +2 +2 .* fail STALL HANG$" <<<"$out" &&
	{ pgrep -f "fake-qemu.*$tmp/h" >/dev/null; [ $? = 1 ]; }
'

expect_success 'a client kernel panic fails the run with the console line' '
	! out=$(FAKE_MC=nfs42-n1:1:panic mc $tmp/p --clients 1 --proto nfs42 2>/dev/null) &&
	grep -q "^not ok 1 nfs42-n1 # .*client 1: kernel panicked" <<<"$out"
'

expect_success 'no fake QEMU left behind' '
	pgrep -f "fake-qemu.*$tmp" >/dev/null; [ $? = 1 ]
'

done_testing
