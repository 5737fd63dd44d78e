#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The real deployment: a diskless client whose root file system is NFSv4.2
# from the same server that holds its swap file (/swapfile, on that root).
# The initramfs only mounts the root and switch_roots into it, so every
# program from then on, the stress included, is paged in over NFS: text
# pages compete with swap for the same memory and the same connection.
# Beside the stress, a developer's work runs on the root, one round after
# another: changes to a git repository, `git status`, `git add`, a commit,
# then find over the whole root and tar|gzip of its programs.
#
# Claims: the stress verifies every page; the work finishes at least one
# round while the stress runs; no task hangs; and afterwards, with the
# page cache dropped so that everything is read back from the server,
# `git fsck --full` finds every object intact, the history holds one
# commit per round, and every file of the work tree matches it.
#
# Why it matters: each synchronous NFS call of that work holds an
# NFSv4.1 session slot while it allocates, and under swap pressure its
# allocation reclaims into ->swap_rw(), where the nfs/ series throttles
# swap writes; a page fault of a program waits for a READ on the same
# transport.  t0560 does metadata work on the swap mount; this is the
# same with the root, and the programs, on NFS.  No compiler: the guest
# has no toolchain; a build's I/O is the calls the rounds make (stat,
# open, read, write new files).
#
# On the plain 6.1.192 base it passes as well (5/5, two rounds of work
# in each): a regression test for the series, which adds the swap write
# throttle (nfs/0005) that the work's slot-holding calls meet.
# tags: nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="diskless client, root and swap file on NFSv4.2: git, find and tar on the root beside the stress; every page verified, the repository intact"
NFSROOT=vers=4.2,proto=tcp,hard
STRESS_MIB=192
SCENARIO_TIMEOUT=1800

client_main() {
	_root=$(awk '$2 == "/" { r = $1 " " $3 " " $4 } END { print r }' /proc/mounts)
	case $_root in
	*" nfs4 "*vers=4.2*) info "root: $_root" ;;
	*) fail "/ is not NFSv4.2: $_root"; return 1 ;;
	esac
	swap_on /swapfile || return 1
	export HOME=/root GIT_CONFIG_NOSYSTEM=1
	mkdir -p "$HOME"
	git() {
		command git -c user.name=swapnfs -c user.email=swapnfs@client \
			-c init.defaultBranch=main "$@"
	}
	_repo=/srv/work
	mkdir -p "$_repo" && cd "$_repo" || { fail "cannot make $_repo"; return 1; }
	# The tree: this guest's scripts and /etc, and 10 directories of 20
	# small files that the rounds change.
	cp -a /guest /etc . || { fail "cp into $_repo failed"; return 1; }
	for _d in 0 1 2 3 4 5 6 7 8 9; do
		mkdir -p "src/d$_d" || return 1
		for _f in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
			echo "file $_d/$_f" >"src/d$_d/f$_f" || return 1
		done
	done
	{ git init -q && git add -A && git commit -q -m start; } 2>/tmp/git.err ||
		{ fail "git setup failed: $(head -n1 /tmp/git.err)"; return 1; }
	# One round: change 10 files, add 10, remove the 10 added three
	# rounds before, see them in git status, commit; walk the whole
	# root; pack the programs.
	work_steps() {
		_r=$1
		for _d in 0 1 2 3 4 5 6 7 8 9; do
			echo "round $_r" >>"src/d$_d/f$((_r % 20))" || return 1
			echo "new $_r" >"src/d$_d/n$_r" || return 1
			rm -f "src/d$_d/n$((_r - 3))"
		done
		[ "$(git status --porcelain | wc -l)" -ge 20 ] || return 1
		git add -A && git commit -q -m "round $_r" || return 1
		find / -xdev -type f | wc -l >/dev/null || return 1
		tar -cf - -C / bin usr guest | gzip -c | wc -c >/dev/null
	}
	work_round() {
		work_steps "$1" 2>>/tmp/git.err && return 0
		info "work round $1: $(tail -n1 /tmp/git.err)"
		return 1
	}
	_rc=0
	beside_stress work_round work -n 1 || _rc=$?
	# Read everything back from the server: drop the page cache, check
	# every object, the history, and every work-tree file against HEAD
	# (an index from read-tree has no stat data, so status hashes each
	# file again).
	sync
	echo 3 >/proc/sys/vm/drop_caches
	git fsck --full --no-progress >/tmp/fsck.out 2>&1 ||
		{ fail "git fsck: $(head -n1 /tmp/fsck.out)"; _rc=1; }
	_c=$(git rev-list --count HEAD)
	[ "$_c" -eq $((rounds + 1)) ] ||
		{ fail "history has $_c commits, expected $((rounds + 1))"; _rc=1; }
	git read-tree HEAD && _s=$(git status --porcelain) && [ -z "$_s" ] ||
		{ fail "work tree differs from HEAD: $(echo "$_s" | head -n1)"; _rc=1; }
	report commits "$_c"
	cd / && rm -rf "$_repo"
	[ "$_rc" -eq 0 ] || return 1
	swap_off /swapfile
}

run_scenario "$@"
