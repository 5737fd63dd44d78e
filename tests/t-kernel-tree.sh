#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/kernel-tree with fake linux-source tarballs: a new package
# version adds a new base beside the old one and deletes nothing.
. "$(dirname "$0")/lib.sh"
echo "TAP version 13"
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"
export SWAPNFS_CACHE=$tmp/cache SWAPNFS_KTREE=$tmp/cache/linux
# fake_tarball SUBLEVEL TEXT: a tree with a kernel Makefile and one file.
fake_tarball() {
	rm -rf "$tmp/src" && mkdir -p "$tmp/src/linux-source-6.1/mm" &&
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = %s\nEXTRAVERSION =\n' "$1" \
		>"$tmp/src/linux-source-6.1/Makefile" &&
	printf '%s\n' "$2" >"$tmp/src/linux-source-6.1/mm/swap.c" &&
	tar -cJf "$tmp/ls-$1.tar.xz" -C "$tmp/src" linux-source-6.1
}
kt() { LINUX_SOURCE_TARBALL=$tmp/ls-$1.tar.xz LINUX_SOURCE_PKGVER=$2 scripts/kernel-tree; }

expect_success 'the first tarball becomes the base tag and branch' '
	fake_tarball 900 "old" && kt 900 6.1.900-1 >/dev/null &&
	[ "$(cat "$SWAPNFS_KTREE/.git/swapnfs-base-tag")" = v6.1.900 ] &&
	[ "$(git -C "$SWAPNFS_KTREE" rev-parse --abbrev-ref HEAD)" = base/6.1.900 ]
'
expect_success 'the same package version reuses the repository' '
	out=$(kt 900 6.1.900-1 2>&1) && [ "$out" = "$SWAPNFS_KTREE" ]
'
expect_success 'a new package version keeps topic branches, sent tags and worktrees' '
	git -C "$SWAPNFS_KTREE" -c user.name=t -c user.email=t@t switch -q -c topic/fx v6.1.900 &&
	echo edit >>"$SWAPNFS_KTREE/mm/swap.c" &&
	git -C "$SWAPNFS_KTREE" -c user.name=t -c user.email=t@t commit -q -am "mm: an edit" &&
	git -C "$SWAPNFS_KTREE" tag sent/fx-v1 topic/fx &&
	git -C "$SWAPNFS_KTREE" worktree add -q --detach "$SWAPNFS_CACHE/wt/check-fx" topic/fx &&
	fake_tarball 901 "new" && kt 901 6.1.901-1 >/dev/null &&
	[ "$(cat "$SWAPNFS_KTREE/.git/swapnfs-base-tag")" = v6.1.901 ] &&
	git -C "$SWAPNFS_KTREE" rev-parse -q --verify v6.1.900 >/dev/null &&
	git -C "$SWAPNFS_KTREE" rev-parse -q --verify topic/fx >/dev/null &&
	git -C "$SWAPNFS_KTREE" rev-parse -q --verify sent/fx-v1 >/dev/null &&
	[ "$(cat "$SWAPNFS_CACHE/wt/check-fx/mm/swap.c")" = "old
edit" ] &&
	[ "$(cat "$SWAPNFS_KTREE/mm/swap.c")" = new ] &&
	[ "$(git -C "$SWAPNFS_KTREE" rev-parse --abbrev-ref HEAD)" = base/6.1.901 ]
'
expect_success 'a checkout with uncommitted changes is not moved (one-line error)' '
	echo dirty >>"$SWAPNFS_KTREE/mm/swap.c" &&
	fake_tarball 902 "newer" &&
	! out=$(kt 902 6.1.902-1 2>&1) &&
	grep -q "^swapnfs: ERROR: .*has uncommitted changes (mm/swap.c): commit or stash them" <<<"$out" &&
	[ "$(tail -n1 "$SWAPNFS_KTREE/mm/swap.c")" = dirty ] &&
	[ "$(cat "$SWAPNFS_KTREE/.git/swapnfs-base-tag")" = v6.1.901 ]
'
expect_success 'SWAPNFS_BASE picks the tarball, package and repository of that base' '
	out=$(SWAPNFS_BASE=6.12 SWAPNFS_KTREE= bash -c ". scripts/lib.sh; echo \$LINUX_SOURCE_TARBALL \$LINUX_SOURCE_PKG \$KTREE") &&
	[ "$out" = "/usr/src/linux-source-6.12.tar.xz linux-source-6.12 $SWAPNFS_CACHE/linux-6.12" ] &&
	! out=$(SWAPNFS_BASE=6.x scripts/kernel-tree 2>&1) &&
	grep -qx "swapnfs: ERROR: base \"6.x\" is not MAJOR.MINOR (e.g. 6.1 or 6.12)" <<<"$out"
'
done_testing
