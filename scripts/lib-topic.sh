# SPDX-License-Identifier: GPL-2.0
# Helpers for scripts/topic and scripts/integrate: what a topic is and how
# it becomes a branch.
#
# A topic is a directory (netvm/, mm/, nfs/, sunrpc/ at the top of this
# repository, or any path with a '/' in it, e.g. the test fixtures):
#
#   TOPIC/0001-subject.patch ...   the series, `git format-patch` output
#                                  against the base tag, applied in name order
#   TOPIC/cover-letter             first line: subject; blank line; body
#   TOPIC/topic.conf               shell-style key=value:
#                                    prefix="PATCH net-next"  (at send time)
#                                    depends="sunrpc"         (topics first)
#                                    change_id="..."          (b4 change-id,
#                                      the same for every revision)
#                                    fixes_verified="850cbaddb52d ..."
#                                      (Fixes: ids checked upstream by hand)
#   TOPIC/send.expected            To:/Cc: the send must produce (checked;
#                                  `scripts/topic send --update-expected`)
#   TOPIC/6.12/                    the series for another base: patches,
#                                  cover-letter, topic.conf (a whole one,
#                                  with its own change_id) and
#                                  send.expected, used when SWAPNFS_BASE=6.12
#                                  or --base 6.12; TOPIC/ itself is 6.1's
#
# In the kernel repository ($KTREE) the topic is the branch topic/NAME:
# the base tag, the patches of every topic it depends on, then its own.
# The patch files carry no commit hashes, version strings or numbering
# (see topic_format_patch), so that writing a branch back into the
# directory changes only the files whose patch really changed.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# die, naming the topic first: every error is one line that says which
# topic and which file.
tdie() {
	local t=$1
	shift
	die "topic $t: $*"
}

# topic_dir TOPIC -> directory.  A bare name is a directory at the top of
# the checkout; anything with a '/' is taken as a path.
topic_dir() {
	local t=$1
	case $t in
	*/*) (cd "$t" 2>/dev/null && pwd) || die "topic $t: no such directory" ;;
	*) [ -d "$SWAPNFS_TOP/$t" ] || die "topic $t: no directory $SWAPNFS_TOP/$t"
	   echo "$SWAPNFS_TOP/$t" ;;
	esac
}

topic_name() { basename "$1"; }

# The directory of a topic's series for the current base: TOPIC/6.12/
# when SWAPNFS_BASE=6.12 and that directory exists, else TOPIC itself (the
# series of record, on 6.1).
topic_series_dir() {
	local d
	d=$(topic_dir "$1") || exit 1
	if [ -d "$d/$SWAPNFS_BASE" ]; then echo "$d/$SWAPNFS_BASE"; else echo "$d"; fi
}

# topic_has_series TOPIC: the topic has a series for the current base (its
# own directory for 6.1, TOPIC/BASE/ with patches for any other base).
topic_has_series() {
	local d
	d=$(topic_dir "$1") || exit 1
	[ "$SWAPNFS_BASE" = 6.1 ] && return 0
	[ -d "$d/$SWAPNFS_BASE" ] && [ -n "$(topic_patches "$d")" ]
}

# topic_file TOPIC FILE: FILE (cover-letter, topic.conf, ...) of the series
# for the current base, falling back to the topic's own.
topic_file() {
	local d s
	d=$(topic_dir "$1") || exit 1
	s=$(topic_series_dir "$d")
	if [ -e "$s/$2" ] || [ "$s" = "$d" ]; then echo "$s/$2"; else echo "$d/$2"; fi
}

# The expected To/Cc of a topic for the current base: recipients come from
# that tree's MAINTAINERS, so each series has its own file.
topic_expected() {
	echo "$(topic_series_dir "$1")/send.expected"
}

# The patches of a topic, in order, one path a line (may be empty).
topic_patches() {
	local d
	d=$(topic_series_dir "$1") || exit 1
	find "$d" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' | sort
}

# topic_conf TOPIC KEY -> value from the topic.conf of the series for the
# current base (TOPIC/6.12/topic.conf with --base 6.12 when it exists, else
# TOPIC/topic.conf); empty if unset.  A series' topic.conf is read alone,
# not merged with the top one.  A series directory without one falls back
# to TOPIC/topic.conf, except for change_id: each series is its own b4
# series, and must never go out under the other base's change-id.
# The file is read in a subshell so that it cannot change our variables.
topic_conf() {
	local d f
	d=$(topic_dir "$1") || exit 1
	f=$(topic_file "$d" topic.conf)
	[ -f "$f" ] || return 0
	[ "$2" = change_id ] && [ "$f" = "$d/topic.conf" ] && [ "$(topic_series_dir "$d")" != "$d" ] &&
		return 0
	(
		prefix= depends= change_id= fixes_verified=
		. "$f" >/dev/null 2>&1 ||
			die "topic $(topic_name "$d"): cannot read $f"
		eval "printf '%s\n' \"\${$2:-}\""
	)
}

# Dependencies of TOPIC, deepest first, each once, TOPIC itself excluded.
# A dependency is a sibling directory of TOPIC (so fixtures depend on
# fixtures and real topics on real topics).
topic_deps() {
	local top=$1 seen=" " out=()
	_topic_deps_walk() {
		local t=$1 chain=$2 d dep parent
		d=$(topic_dir "$t") || exit 1
		parent=$(dirname "$d")
		for dep in $(topic_conf "$t" depends); do
			case " $chain " in
			*" $dep "*) die "topic $(topic_name "$d"): dependency cycle: $chain $dep (in $d/topic.conf)" ;;
			esac
			[ -d "$parent/$dep" ] ||
				die "topic $(topic_name "$d"): depends on '$dep', but there is no $parent/$dep (in $d/topic.conf)"
			_topic_deps_walk "$parent/$dep" "$chain $dep"
			case $seen in *" $dep "*) continue ;; esac
			seen="$seen$dep "
			out+=("$parent/$dep")
		done
	}
	_topic_deps_walk "$top" "$(topic_name "$(topic_dir "$top")")"
	[ ${#out[@]} -eq 0 ] || printf '%s\n' "${out[@]}"
}

base_commit() {
	git -C "$KTREE" rev-parse -q --verify "$(base_tag)^{commit}" ||
		die "no base tag $(base_tag) in $KTREE"
}

# A git in the kernel repository with settings that make patches
# reproducible whatever the user's ~/.gitconfig says.
kgit() {
	git -C "${KGIT_DIR:-$KTREE}" -c core.abbrev=12 -c diff.algorithm=myers \
		-c diff.noprefix=false -c diff.mnemonicPrefix=false \
		-c diff.renames=true -c format.signature= -c format.coverLetter=false \
		-c format.numbered=false -c format.useAutoBase=false \
		-c format.thread=false \
		-c am.threeWay=false -c apply.whitespace=nowarn "$@"
}

# topic_format_patch OUTDIR RANGE: the stable patch format of topic dirs.
# --zero-commit: no commit hashes (they change on every rebase);
# --no-signature: no git version; -N and a plain "PATCH" prefix: no "n/m"
# that would change every file when a patch is added (send adds numbering
# and the list prefix).  The author date stays, as in any patch.
topic_format_patch() {
	kgit format-patch -q --zero-commit --no-signature -N --subject-prefix=PATCH \
		--no-cover-letter --no-base --no-to --no-cc --no-add-header -o "$1" "$2"
}

# The worktree where patches are applied: made once, reused.
topic_am_tree() {
	local wt=$WTROOT/topic
	[ -e "$wt/.git" ] && git -C "$wt" rev-parse -q --verify HEAD >/dev/null ||
		"$SWAPNFS_TOP/scripts/worktree" topic "$(base_commit)" >/dev/null || exit 1
	echo "$wt"
}

# topic_apply_onto START TOPIC... : apply each topic's patches in order on
# START in the topic-am worktree; prints the resulting commit.  On a patch
# that does not apply: one line naming the topic and the patch file.
topic_apply_onto() {
	local start=$1 wt t d p n
	shift
	wt=$(topic_am_tree) || exit 1
	git -C "$wt" am --abort >/dev/null 2>&1
	git -C "$wt" checkout -q -f --detach "$start" || die "cannot check out $start in $wt"
	for t in "$@"; do
		d=$(topic_dir "$t") || exit 1
		n=0
		while read -r p; do
			[ -n "$p" ] || continue
			n=$((n + 1))
			if ! KGIT_DIR=$wt kgit am -q --keep-cr --committer-date-is-author-date "$p" \
				>"$wt/../topic.log" 2>&1; then
				git -C "$wt" am --abort >/dev/null 2>&1
				die "topic $(topic_name "$d"): $p does not apply: $(grep -m1 -E 'error:|patch failed|corrupt' "$wt/../topic.log")"
			fi
		done < <(topic_patches "$d")
	done
	git -C "$wt" rev-parse HEAD
}

# The worktree (if any) that has BRANCH checked out.
branch_worktree() {
	git -C "$KTREE" worktree list --porcelain |
		awk -v b="refs/heads/$1" '/^worktree /{w=substr($0, 10)} $0 == "branch " b {print w}'
}

# Refuse a branch whose worktree has uncommitted changes: writing it back
# or replacing it would lose them.
branch_clean() {
	local t=$1 br=$2 wt dirty
	wt=$(branch_worktree "$br")
	[ -n "$wt" ] || return 0
	dirty=$(git -C "$wt" status --porcelain --untracked-files=no | head -n3 | awk '{print $2}' | tr '\n' ' ')
	[ -z "$dirty" ] ||
		die "topic $t: work tree $wt (branch $br) has uncommitted changes: ${dirty% } (commit or discard them first)"
}
