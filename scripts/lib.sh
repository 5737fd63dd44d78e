# SPDX-License-Identifier: GPL-2.0
# Shared shell helpers for everything under scripts/ and integration/.
#
# Every tool sources this file.  It fixes the locale and time zone so that
# output is reproducible, defines where the cache lives (the kernel tree and
# all build output stay outside the checkout), and gives the one-line error
# convention: `die "what went wrong"` prints "swapnfs: ERROR: ..." on stderr
# and exits 1.

export LC_ALL=C TZ=UTC
umask 022

SWAPNFS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# All generated state: kernel repository, worktrees, images, ccache.
SWAPNFS_CACHE=${SWAPNFS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/swapnfs}
# The base: which Debian linux-source package the topics apply to.
# SWAPNFS_BASE=6.1 (the default, the base of record) or 6.12; scripts/topic
# also takes --base.  Each base has its own tarball, package and kernel
# repository in the cache (6.1 keeps the old path $SWAPNFS_CACHE/linux).
SWAPNFS_BASE=${SWAPNFS_BASE:-6.1}
[[ $SWAPNFS_BASE =~ ^[0-9]+\.[0-9]+$ ]] || {
	printf 'swapnfs: ERROR: base "%s" is not MAJOR.MINOR (e.g. 6.1 or 6.12)\n' "$SWAPNFS_BASE" >&2
	exit 1
}
export SWAPNFS_BASE
# The unpacked linux-source tree, as a git repository with the base tag.
if [ "$SWAPNFS_BASE" = 6.1 ]; then
	KTREE=${SWAPNFS_KTREE:-$SWAPNFS_CACHE/linux}
else
	KTREE=${SWAPNFS_KTREE:-$SWAPNFS_CACHE/linux-$SWAPNFS_BASE}
fi
# Worktrees of that repository (scripts/worktree): one directory per base,
# so that a 6.1 and a 6.12 build never share a checkout or its out/ (6.1
# keeps the old path $SWAPNFS_CACHE/wt).
if [ "$SWAPNFS_BASE" = 6.1 ]; then
	WTROOT=$SWAPNFS_CACHE/wt
else
	WTROOT=$SWAPNFS_CACHE/wt-$SWAPNFS_BASE
fi
# Where results go by default (scripts/integrate, scripts/topic send):
# results/ for 6.1, results/BASE/ for another base.
if [ "$SWAPNFS_BASE" = 6.1 ]; then
	BASE_RESULTS=$SWAPNFS_TOP/results
else
	BASE_RESULTS=$SWAPNFS_TOP/results/$SWAPNFS_BASE
fi
LINUX_SOURCE_TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-$SWAPNFS_BASE.tar.xz}
LINUX_SOURCE_PKG=${LINUX_SOURCE_PKG:-linux-source-$SWAPNFS_BASE}
export CCACHE_DIR=${CCACHE_DIR:-$SWAPNFS_CACHE/ccache}

die() {
	printf 'swapnfs: ERROR: %s\n' "$*" >&2
	exit 1
}

# makefile_var TREE VAR: VAR's value in a kernel tree's top Makefile
# (VERSION, PATCHLEVEL, ...), read as text: make itself would need a
# configured tree.
makefile_var() {
	sed -n "s/^$2 = *//p" "$1/Makefile" | head -n1
}

# Progress for long steps goes to stderr so that stdout stays parseable.
note() {
	printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' not found: run scripts/setup (apt-get install) first"
	done
}

# The base tag of the kernel repository, e.g. v6.1.192.  Written by
# scripts/kernel-tree; everything that applies or compares against the base
# asks here instead of hard-coding a version.
base_tag() {
	[ -f "$KTREE/.git/swapnfs-base-tag" ] ||
		die "no kernel tree at $KTREE: run scripts/kernel-tree first"
	cat "$KTREE/.git/swapnfs-base-tag"
}

# Seconds since the epoch, for figures.
now() { date +%s; }

# Command-line checks, so that bad input is one line and writes nothing.
#
# opt_value WHO OPT [VALUE]: an option that takes a value got one: present,
# not empty, not the next option.  Call it as `opt_value WHO "$@"` from the
# option loop (it looks at $1 and $2 of the caller only).
opt_value() {
	local who=$1 opt=$2
	[ $# -ge 3 ] || die "$who: $opt needs a value"
	[ -n "$3" ] || die "$who: $opt needs a value, got an empty one"
	case $3 in -*) die "$who: $opt needs a value, got the option '$3'" ;; esac
}

# plain_name WHO WHAT VALUE: VALUE is one path component made of letters,
# digits, '.', '_', '+' and '-' (labels, worktree names, tags): never
# '..', never a '/'.
plain_name() {
	[[ $3 =~ ^[A-Za-z0-9][A-Za-z0-9._+-]*$ ]] ||
		die "$1: $2 '$3' is not a plain name (letters, digits, . _ + -; no /)"
}

# results_dir WHO DIR: make DIR usable as a results directory and print its
# absolute path.  Accepted: a directory that does not exist yet (it is
# made), an empty one, one marked by an earlier run (.swapnfs-results), or
# one inside the checkout, the cache or the temporary directory (below
# $TMPDIR or /tmp, as tests make them).  Anything else (/, $HOME, /etc)
# is refused, so that a mistyped --results never writes among other files.
results_dir() {
	local who=$1 d=$2 abs
	[ -n "$d" ] || die "$who: empty results directory"
	if [ -e "$d" ]; then
		[ -d "$d" ] || die "$who: results directory $d is not a directory"
		abs=$(cd "$d" && pwd -P) || die "$who: cannot enter results directory $d"
		# The cache is only compared, never made here: a refused
		# --results must not leave a new ~/.cache behind.
		case $abs/ in
		"$(cd "$SWAPNFS_TOP" && pwd -P)"/?*) ;;
		"$(cd "$SWAPNFS_CACHE" 2>/dev/null && pwd -P || echo /nonexistent)"/?*) ;;
		"$(cd "${TMPDIR:-/tmp}" 2>/dev/null && pwd -P)"/?*) ;;
		*)
			[ -f "$abs/.swapnfs-results" ] || [ -z "$(ls -A "$abs")" ] ||
				die "$who: $d is not a results directory (not empty, no .swapnfs-results in it): give a new or empty directory (or mark it: touch $d/.swapnfs-results)"
			;;
		esac
	else
		mkdir -p "$d" || die "$who: cannot create results directory $d"
		abs=$(cd "$d" && pwd -P) || die "$who: cannot enter results directory $d"
	fi
	[ -w "$abs" ] || die "$who: results directory $d is not writable"
	: >>"$abs/.swapnfs-results" || die "$who: cannot write to results directory $d"
	echo "$abs"
}
