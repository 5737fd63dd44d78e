#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The job list of integration/run runs across hosts with GNU parallel
# --sshlogin, and --collect makes of the files brought back the same KTAP
# lines, Totals and table as a local run.  The two "hosts" are aliases of
# 127.0.0.1 served by an sshd of this test (its own port, host key,
# config and authorized_keys; /etc/ssh and the system's sshd are never
# touched).  Each job runs in its own directory (parallel --wd ...) and
# its results come back with parallel --return (then --cleanup), so
# nothing is shared by accident.  The scenarios are stubs (no guest
# boots): they print what integration/lib.sh prints and write a result.
. "$(dirname "$0")/lib.sh"
echo "TAP version 13"
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"

missing=
for c in parallel /usr/sbin/sshd ssh ssh-keygen rsync; do
	command -v "$c" >/dev/null || missing="$missing ${c##*/}"
done
expect_success 'GNU parallel, sshd, ssh, ssh-keygen and rsync are installed (scripts/setup installs them)' '
	[ -z "$missing" ] || { echo "t-distribute: missing:$missing (run scripts/setup)"; false; }
'
if [ -n "$missing" ]; then
	done_testing
	exit 1
fi

# --- an sshd on a free port of 127.0.0.1, for two host aliases ------------
s=$tmp/ssh
mkdir -m 700 "$s"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ssh-keygen -q -t ed25519 -N "" -f "$s/host_key" && ssh-keygen -q -t ed25519 -N "" -f "$s/id" &&
	cp "$s/id.pub" "$s/authorized_keys" || exit 1
cat >"$s/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $s/host_key
AuthorizedKeysFile $s/authorized_keys
PidFile $s/sshd.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
EOF
cat >"$s/config" <<EOF
Host h1 h2
	HostName 127.0.0.1
	Port $port
	User $(id -un)
	IdentityFile $s/id
	IdentitiesOnly yes
	BatchMode yes
	StrictHostKeyChecking yes
	UserKnownHostsFile $s/known_hosts
	GlobalKnownHostsFile /dev/null
	HostKeyAlias swapnfs-test-host
EOF
echo "swapnfs-test-host $(cat "$s/host_key.pub")" >"$s/known_hosts"
# sshd running as root wants its privilege separation directory.
if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then
	mkdir -m 755 /run/sshd && when_finished "rmdir /run/sshd 2>/dev/null"
fi
/usr/sbin/sshd -f "$s/sshd_config" -D -E "$s/sshd.log" &
sshd_pid=$!
when_finished "kill $sshd_pid 2>/dev/null; wait $sshd_pid 2>/dev/null"
ssh="ssh -F $s/config"

expect_success 'a private sshd answers as two hosts, h1 and h2' '
	for i in $(seq 50); do $ssh h1 true 2>/dev/null && break; sleep 0.2; done &&
	[ "$($ssh h1 echo one)" = one ] && [ "$($ssh h2 echo two)" = two ] ||
		{ cat "$s/sshd.log"; false; }
'

# --- stub scenarios -------------------------------------------------------
# stub NAME EXIT STATUS LINE...: prints LINEs, writes a result with STATUS
# (none if STATUS is -), exits EXIT.
mkdir "$tmp/scn" "$tmp/local" "$tmp/far"
stub() {
	local name=$1 rc=$2 st=$3
	shift 3
	{
		echo '#!/bin/bash'
		echo 'R= L=run'
		echo 'while [ $# -gt 0 ]; do case $1 in --results) R=$2; shift ;; --label) L=$2; shift ;; esac; shift; done'
		echo 'sleep 1'
		[ "$st" = - ] ||
			echo "mkdir -p \"\$R/\$L/$name\" && printf 'scenario=$name\\nlabel=%s\\nstatus=$st\\nelapsed_s=${#name}\\ncwd=%s\\n' \"\$L\" \"\$PWD\" >\"\$R/\$L/$name/result\""
		echo 'echo "TAP version 13"; echo "1..1"'
		printf 'echo %q\n' "$@"
		echo "exit $rc"
	} >"$tmp/scn/$name.sh" && chmod +x "$tmp/scn/$name.sh"
}
stub t9001-pass 0 pass "ok 1 t9001-pass" "# figure elapsed_ms=10"
stub t9002-fail 1 fail "not ok 1 t9002-fail" "# FAIL t9002-fail [series]: 3 pages read back wrong"
stub t9003-hang 1 fail "not ok 1 t9003-hang # TIMEOUT 900 seconds"
stub t9004-skip 4 skip "ok 1 t9004-skip # SKIP no debug kernel given"
stub t9005-error 1 -
stub t9006-pass 0 pass "ok 1 t9006-pass"
scn=("$tmp"/scn/t*.sh)
: >"$tmp/bzImage"
opts=(--label series --kernel "$tmp/bzImage")

expect_success 'run --list: one command line per scenario, --job N/T and the options in it' '
	out=$(integration/run --list "${opts[@]}" --results res "${scn[@]}") &&
	printf "%s\n" "$out" >"$tmp/jobs" &&
	[ "$(wc -l <"$tmp/jobs")" -eq 6 ] &&
	grep -q -- "integration/run --job 1/6 --label series --kernel $tmp/bzImage --results res $tmp/scn/t9001-pass.sh\$" <<<"$out" &&
	grep -q -- "--job 6/6 .*t9006-pass.sh\$" <<<"$out" &&
	[ ! -e res ]
'

expect_success 'a local run of the same stubs (the reference)' '
	! integration/run "${opts[@]}" --results "$tmp/local" "${scn[@]}" >"$tmp/local.out" 2>&1 &&
	grep -qx "# Totals: pass:2 fail:2 xfail:0 xpass:0 skip:1 error:1" "$tmp/local.out" &&
	scripts/integrate --table --results "$tmp/local" >"$tmp/local.table" &&
	grep -q "^t9002-fail .*| fail (elapsed_s=10)$" "$tmp/local.table"
'

expect_success 'parallel --sshlogin runs the list on h1 and h2 and --return brings the results back' '
	(cd "$tmp/far" && parallel --will-cite --ssh "$ssh" --sshlogin 1/h1,1/h2 \
		--wd ... --return res --cleanup --joblog "$tmp/joblog" <"$tmp/jobs") &&
	cat "$tmp/joblog" &&
	[ "$(awk "NR > 1 && \$7 == 0" "$tmp/joblog" | wc -l)" -eq 6 ] &&
	ls "$tmp/far/res/series/.jobs" | grep -c "\.rc$" | grep -qx 6 &&
	cwds=$(sed -n "s/^cwd=//p" "$tmp"/far/res/series/t*/result) &&
	printf "%s\n" "$cwds" &&
	[ "$(sort -u <<<"$cwds" | grep -c "^$HOME/.parallel/tmp/.")" -eq 5 ] &&
	left=$(ls -d $cwds 2>/dev/null; true) && [ -z "$left" ] || { echo "not cleaned up: $left"; false; }
'

expect_success 'both hosts ran jobs' '
	awk "NR > 1 { print \$2 }" "$tmp/joblog" | sort | uniq -c &&
	[ "$(awk "NR > 1 { print \$2 }" "$tmp/joblog" | sort -u | tr "\n" " ")" = "h1 h2 " ]
'

expect_success 'run --collect: the same KTAP, Totals and last line as the local run, then the table' '
	! integration/run --collect "$tmp/far/res" >"$tmp/far.out" 2>&1 &&
	cat "$tmp/far.out" &&
	n=$(wc -l <"$tmp/local.out") &&
	head -n "$n" "$tmp/far.out" | diff "$tmp/local.out" - &&
	grep -qx "# Totals: pass:2 fail:2 xfail:0 xpass:0 skip:1 error:1" "$tmp/far.out" &&
	grep -qx "2 passed, 3 failed, 1 skipped" "$tmp/far.out" &&
	tail -n +$((n + 2)) "$tmp/far.out" | diff "$tmp/local.table" - &&
	scripts/integrate --table --results "$tmp/far/res" | diff "$tmp/local.table" -
'

expect_success 'run --collect: a job whose files never came back is an error, not a pass' '
	cp -a "$tmp/far/res" "$tmp/lost" && rm "$tmp/lost/series/.jobs/6."* &&
	! out=$(integration/run --collect "$tmp/lost" --label series 2>&1) &&
	grep -qx "not ok 6 job-6 # ERROR no result collected (the job did not run or its files were not brought back)" <<<"$out" &&
	grep -qx "# Totals: pass:1 fail:2 xfail:0 xpass:0 skip:1 error:2" <<<"$out"
'

expect_success 'run --collect refuses a directory of two different lists' '
	mkdir -p "$tmp/mixed/series/.jobs" && cp "$tmp/far/res/series/.jobs/"* "$tmp/mixed/series/.jobs/" &&
	echo 9 >"$tmp/mixed/series/.jobs/7.total" &&
	! out=$(integration/run --collect "$tmp/mixed" 2>&1) &&
	grep -q "holds jobs of different lists" <<<"$out" && [ "$(wc -l <<<"$out")" -eq 1 ]
'

expect_success 'bad input: one line and a non-zero exit' '
	! out=$(integration/run --collect "$tmp/nosuch" 2>&1) && grep -q "no such directory" <<<"$out" &&
	[ "$(wc -l <<<"$out")" -eq 1 ] &&
	! out=$(integration/run --collect "$tmp/scn" 2>&1) && grep -q "no job results" <<<"$out" &&
	! out=$(integration/run --job 0/3 "${scn[0]}" 2>&1) && grep -q "N/TOTAL" <<<"$out" &&
	! out=$(integration/run --job 4/3 "${scn[0]}" 2>&1) && grep -q "N/TOTAL" <<<"$out" &&
	! out=$(integration/run --job 1/2 "${scn[@]}" 2>&1) && grep -q "one scenario" <<<"$out" &&
	! out=$(SWAPNFS_KERNEL= integration/run --list "${scn[0]}" 2>&1) && grep -q "needs --kernel" <<<"$out" &&
	! out=$(integration/run --collect 2>&1) && grep -q "needs a value" <<<"$out"
'
done_testing
