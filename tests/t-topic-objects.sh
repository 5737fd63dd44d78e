#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `scripts/topic objects` (what `topic check` compiles for a patch in the
# middle of a topic): the .c files a commit changes that the config
# compiles, one object that includes each header that only gained lines,
# and "whole" wherever only a whole build can tell.  The tree is a tiny
# git repository with an out/ laid out as kbuild leaves it (vmlinux,
# net/core/sock.o, .sock.o.cmd naming the headers), so each answer
# follows from one rule and a wrong rule gives a wrong list.
. "$(dirname "$0")/lib.sh"
echo "TAP version 13"
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"
t=$tmp/tree

git init -q "$t" && echo /out/ >>"$t/.git/info/exclude" &&
	mkdir -p "$t/include/net" "$t/net/core" "$t/net/ipv4" "$t/drivers/x" "$t/Documentation" &&
	printf 'struct sock { int a; };\nint old_name(void);\n' >"$t/include/net/sock.h" &&
	printf 'int unused_h;\n' >"$t/include/net/nobody.h" &&
	for f in net/core/sock.c net/ipv4/udp.c drivers/x/off.c; do echo "int x;" >"$t/$f"; done &&
	echo "obj-y += sock.o" >"$t/net/core/Makefile" &&
	echo "text" >"$t/Documentation/a.rst" &&
	git -C "$t" add -A && git -C "$t" -c user.name=t -c user.email=t@t commit -q -m base ||
	exit 1
mkdir -p "$t/out/net/core" "$t/out/net/ipv4"
: >"$t/out/vmlinux"
: >"$t/out/net/core/sock.o"
: >"$t/out/net/ipv4/udp.o"
printf 'deps_net/core/sock.o := \\\n  ../include/net/sock.h \\\n  ../include/linux/types.h \\\n\n' >"$t/out/net/core/.sock.o.cmd"

# commit TITLE FILE CONTENT: one commit that writes FILE; prints its id.
commit() {
	printf '%b' "$3" >"$t/$2" &&
	git -C "$t" add -A && git -C "$t" -c user.name=t -c user.email=t@t commit -q -m "$1" &&
	git -C "$t" rev-parse HEAD
}
objects() { scripts/topic objects "$t" "$1" 2>&1; }

expect_success 'a changed .c in the config: its object' '
	c=$(commit udp net/ipv4/udp.c "int x;\nint y;\n") &&
	out=$(objects "$c") && [ "$out" = net/ipv4/udp.o ]
'
expect_success 'a changed .c the config does not compile: named, not built' '
	c=$(commit off drivers/x/off.c "int z;\n") &&
	out=$(objects "$c") && [ "$out" = "# not in this config: drivers/x/off.c" ]
'
expect_success 'a header that only gains lines: one object that includes it' '
	c=$(commit add include/net/sock.h "struct sock { int a; };\nint old_name(void);\nint new_one(void);\n") &&
	out=$(objects "$c") && [ "$out" = net/core/sock.o ]
'
expect_success 'a header nothing in the config includes: named, not built' '
	c=$(commit nobody include/net/nobody.h "int unused_h;\nint more;\n") &&
	out=$(objects "$c") && [ "$out" = "# not in this config: include/net/nobody.h" ]
'
expect_success 'a header that loses or changes a line: whole build' '
	c=$(commit rename include/net/sock.h "struct sock { int a; };\nint new_name(void);\nint new_one(void);\n") &&
	out=$(objects "$c") && [ "$out" = whole ]
'
expect_success 'a Makefile change: whole build' '
	c=$(commit mk net/core/Makefile "obj-y += sock.o other.o\n") &&
	out=$(objects "$c") && [ "$out" = whole ]
'
expect_success 'Documentation only: nothing to compile' '
	c=$(commit doc Documentation/a.rst "more text\n") &&
	out=$(objects "$c") && [ -z "$out" ]
'
expect_success 'no whole build in out/ yet (no vmlinux): whole build' '
	c=$(commit udp2 net/ipv4/udp.c "int x;\nint y;\nint w;\n") &&
	rm "$t/out/vmlinux" && out=$(objects "$c") && [ "$out" = whole ]
'
expect_success 'bad input: a tree without out/, a commit that does not exist' '
	! out=$(scripts/topic objects "$tmp" 2>&1) &&
	grep -qx "swapnfs: ERROR: topic objects: $tmp has no out/ (scripts/kernel-build TREE builds one)" <<<"$out" &&
	! out=$(scripts/topic objects "$t" nope 2>&1) &&
	grep -qx "swapnfs: ERROR: topic objects: no commit .nope. in $t" <<<"$out" &&
	! out=$(scripts/topic objects 2>&1) &&
	grep -qx "swapnfs: ERROR: topic objects: usage: topic objects TREE \[COMMIT\]" <<<"$out"
'
done_testing
