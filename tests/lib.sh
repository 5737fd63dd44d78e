# SPDX-License-Identifier: GPL-2.0
# A tiny TAP library for tests/t-*.sh, after git's test-lib: a test is a
# claim in its title and a body; setup happens inside assertions; cleanup
# is registered where the thing is made.
#
#   . "$(dirname "$0")/lib.sh"
#   expect_success 'kernel-tree refuses a missing tarball' '
#           ! out=$(LINUX_SOURCE_TARBALL=/nope scripts/kernel-tree 2>&1) &&
#           grep -q "missing" <<<"$out"
#   '
#   done_testing
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$SWAPNFS_TOP" || exit 1

_t_n=0 _t_fail=0 _t_skip=0 _t_cleanup=()
_t_run_cleanup() {
	local c
	for c in "${_t_cleanup[@]}"; do eval "$c"; done
	_t_cleanup=()
}
trap _t_run_cleanup EXIT
# Register cleanup for the end of the test file (the thing just made).
when_finished() { _t_cleanup+=("$1"); }

# The body runs in this shell (so it can set variables for later tests);
# on failure its output and the last value of $out are shown.
expect_success() {
	local title=$1 body=$2 log
	log=$(mktemp)
	_t_n=$((_t_n + 1))
	out=
	if eval "$body" >"$log" 2>&1; then
		echo "ok $_t_n - $title"
	else
		_t_fail=$((_t_fail + 1))
		echo "not ok $_t_n - $title"
		{ cat "$log"; printf '%s\n' "$out"; } | tail -n 25 | sed 's/^/#   /'
	fi
	rm -f "$log"
}

skip_test() {
	_t_n=$((_t_n + 1)) _t_skip=$((_t_skip + 1))
	echo "ok $_t_n - $1 # SKIP $2"
}

done_testing() {
	echo "1..$_t_n"
	_t_run_cleanup
	[ "$_t_fail" -eq 0 ]
}
