#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# b4 round trip of the fixture topics: b4 send -o gives the checked-in
# To/Cc (drift fails), and a send through b4 to an SMTP sink on 127.0.0.1
# (aiosmtpd, Debian's python3-aiosmtpd) gives mails that git am turns
# back into exactly the tree of the topic branch.  Recipients include all
# that the base tree's own get_maintainer.pl names; a real send refuses a
# placeholder identity, a missing SMTP server and unchecked Fixes: ids;
# a reroll (v1, a reply with Reviewed-by, trailers, v2) round-trips.
. "$(dirname "$0")/lib.sh"
. "$SWAPNFS_TOP/tests/fixtures/topic-env.sh"
echo "TAP version 13"
if ! topic_env_setup; then
	skip_test 'topic send' 'no kernel tree (scripts/kernel-tree)'
	done_testing; exit $?
fi
if ! command -v b4 >/dev/null; then
	skip_test 'topic send' 'b4 not installed'
	done_testing; exit $?
fi
when_finished topic_env_reset
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"

# The SMTP sink: aiosmtpd's Mailbox handler writes a Maildir.
port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/bin/python3 -m aiosmtpd -n -l "127.0.0.1:$port" -c aiosmtpd.handlers.Mailbox "$tmp/maildir" \
	>"$tmp/sink.log" 2>&1 &
sink=$!
when_finished "kill $sink 2>/dev/null"
for i in $(seq 50); do
	/usr/bin/python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break
	sleep 0.2
done

# apply_mails TOPIC START MSGID-PART: git am the captured mails whose
# Message-Id has MSGID-PART (b4 puts the branch name there), in series order,
# on a fresh base (plus its dependencies' branches) and compare trees.
apply_mails() {
	local t=$1 start=$2 wt=$SWAPNFS_CACHE/wt/topic
	git -C "$wt" checkout -q -f --detach "$start" &&
	/usr/bin/python3 - "$tmp/maildir" "$tmp/mbox-$t" "$3" <<'PY' &&
import mailbox, re, sys
src, out, change = sys.argv[1:4]
msgs = []
for key, m in mailbox.Maildir(src, factory=None, create=False).items():
    if change not in str(m.get('Message-Id', '')):
        continue
    subj = ' '.join(str(m['Subject']).split())
    n = re.search(r'\[PATCH[^\]]*?(\d+)/(\d+)\]', subj)
    idx = int(n.group(1)) if n else 1
    if idx == 0:
        continue
    msgs.append((idx, m))
with open(out, 'w') as fh:
    for idx, m in sorted(msgs, key=lambda x: x[0]):
        fh.write('From mboxrd@z Thu Jan  1 00:00:00 1970\n')
        fh.write(m.as_string(unixfrom=False))
        fh.write('\n')
print(len(msgs))
PY
	git -C "$wt" am -q "$tmp/mbox-$t" &&
	git -C "$KTREE" diff --quiet "topic/$t" "$(git -C "$wt" rev-parse HEAD)" &&
	[ "$(git -C "$wt" log --format=%s "$start..HEAD")" = "$(git -C "$KTREE" log --format=%s "$start..topic/$t")" ]
}
for t in fx-sunrpc fx-mm fx-net; do
	expect_success "b4 send $t to an SMTP sink on 127.0.0.1 (To/Cc as in send.expected, base-commit corrected); git am of the mails gives topic/$t" '
		scripts/topic branch "$FIX/$t" >/dev/null &&
		scripts/topic send --send --smtp "127.0.0.1:$port" -o "$tmp/o-$t" "$FIX/$t" <<<"" &&
		cmp "$tmp/o-$t/recipients" "$FIX/$t/send.expected" &&
		grep -qx "base-commit: $(git -C "$KTREE" rev-parse v6.1.192)" "$tmp/o-$t"/*.eml &&
		start=v6.1.192 && { [ $t != fx-mm ] || start=topic/fx-sunrpc; } &&
		apply_mails $t "$start" "-b4-$t-v"
	'
done
expect_success 'the subject prefix comes from topic.conf (net-next)' '
	grep -q "^Subject: \[PATCH net-next\] net: add a fixture comment" "$tmp/o-fx-net"/*.eml &&
	grep -q "^Subject: \[PATCH 1/2\] SUNRPC: say what" "$tmp/o-fx-sunrpc"/0001-*.eml
'
expect_success 'a topic on top of another lists its prerequisite patch-ids' '
	[ "$(grep -c "^prerequisite-patch-id: " "$tmp/o-fx-mm"/*.eml)" = 2 ]
'
expect_success 'To/Cc drift from send.expected fails the send' '
	cp -r "$FIX/fx-net" "$tmp/fx-net" && sed -i "/netdev@/d" "$tmp/fx-net/send.expected" &&
	! out=$(scripts/topic send -o "$tmp/o-drift" "$tmp/fx-net" 2>&1) &&
	grep -q "topic fx-net: To/Cc drifted from .*send.expected: +Cc: netdev@vger.kernel.org" <<<"$out"
'


# tree_getm PATCH...: what the base tree's own get_maintainer.pl names.
tree_getm() {
	(cd "$SWAPNFS_CACHE/wt/topic" && perl scripts/get_maintainer.pl --nogit --nogit-fallback \
		--nogit-chief-penguins --norolestats --no-s "$@" 2>/dev/null) |
		sed 's/.*<\(.*\)>.*/\1/' | sort -u
}
# superset ADDRS-FILE RECIPIENTS-FILE: every address of the first is in the second.
superset() {
	local a miss=
	for a in $(cat "$1"); do grep -qiF "<$a>" "$2" || grep -qixE "(To|Cc): $a" "$2" || miss="$miss $a"; done
	[ -z "$miss" ] || { echo "missing:$miss"; return 1; }
}
for t in fx-sunrpc fx-mm fx-net; do
	expect_success "recipients of $t include all that the tree's get_maintainer.pl names" '
		tree_getm "$FIX/$t"/*.patch >"$tmp/getm-$t" && [ -s "$tmp/getm-$t" ] &&
		grep -qx "linux-kernel@vger.kernel.org" "$tmp/getm-$t" &&
		superset "$tmp/getm-$t" "$tmp/o-$t/recipients"
	'
done
for t in netvm mm nfs sunrpc; do
	expect_success "$t/send.expected includes all that the tree's get_maintainer.pl names" '
		tree_getm "$SWAPNFS_TOP/$t"/[0-9]*.patch >"$tmp/getm-$t" && [ -s "$tmp/getm-$t" ] &&
		superset "$tmp/getm-$t" "$SWAPNFS_TOP/$t/send.expected"
	'
done
# The 6.12 recipients, from the 6.12 tree's own MAINTAINERS: a skeleton of
# that tree (get_maintainer.pl, MAINTAINERS and the top-level files it
# looks for) is enough, no checkout.
k612=$_real_cache/linux-6.12
if [ -f "$k612/.git/swapnfs-base-tag" ]; then
	skel=$tmp/skel-6.12
	mkdir -p "$skel"/{Documentation,arch,include,drivers,fs,init,ipc,kernel,lib,scripts} &&
	git -C "$k612" archive "$(cat "$k612/.git/swapnfs-base-tag")" COPYING CREDITS Kbuild MAINTAINERS \
		Makefile README .mailmap .get_maintainer.ignore scripts/get_maintainer.pl | tar -x -C "$skel"
	getm612() { (cd "$skel" && "$SWAPNFS_TOP/scripts/topic" get-maintainer "$@"); }
	expect_success 'get-maintainer on 6.12: where ours has a 6.1 address, the tree'"'"'s is kept, not both' '
		out=$(getm612 nol "$SWAPNFS_TOP"/sunrpc/6.12/0003-*.patch) &&
		grep -qx "Trond Myklebust <trondmy@kernel.org>" <<<"$out" &&
		! grep -q "hammerspace" <<<"$out" &&
		out=$(getm612 nom "$SWAPNFS_TOP"/netvm/6.12/0005-*.patch) &&
		grep -qx "virtualization@lists.linux.dev" <<<"$out" &&
		! grep -q "linux-foundation" <<<"$out" &&
		out=$(getm612 nom "$SWAPNFS_TOP"/netvm/6.12/0001-*.patch) &&
		grep -qx "linux-mm@kvack.org" <<<"$out"
	'
	for t in sunrpc netvm; do
		expect_success "$t/6.12/send.expected has all that the 6.12 tree names, nobody twice" '
			(cd "$skel" && perl scripts/get_maintainer.pl --nogit --nogit-fallback --nogit-chief-penguins \
				--norolestats --no-s "$SWAPNFS_TOP/$t/6.12"/[0-9]*.patch 2>/dev/null) |
				sed "s/.*<\(.*\)>.*/\1/" | sort -u >"$tmp/getm612-$t" && [ -s "$tmp/getm612-$t" ] &&
			superset "$tmp/getm612-$t" "$SWAPNFS_TOP/$t/6.12/send.expected" &&
			sed "s/^[A-Za-z]*: //" "$SWAPNFS_TOP/$t/6.12/send.expected" | sort -u >"$tmp/addrs612-$t" &&
			out=$(sed -n "s/^\(.*\) <.*/\1/p" "$tmp/addrs612-$t" | sort | uniq -d) &&
			[ -z "$out" ] &&
			out=$(sed -n "/</!s/@.*//p" "$tmp/addrs612-$t" | sort | uniq -d) &&
			[ -z "$out" ] &&
			! grep -qe hammerspace -e linux-foundation "$SWAPNFS_TOP/$t/6.12/send.expected"
		'
	done
else
	skip_test 'recipients on 6.12' "no 6.12 tree ($k612; SWAPNFS_BASE=6.12 scripts/kernel-tree)"
fi
expect_success 'a real send from a placeholder identity is refused with one line' '
	! out=$(git -C "$KTREE" config user.email a@users.noreply.example.example >/dev/null;
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.email GIT_CONFIG_VALUE_0=me@users.noreply.a-seed.example \
		scripts/topic send --send --smtp "127.0.0.1:$port" -o "$tmp/o-id" "$FIX/fx-net" 2>&1 </dev/null) &&
	git -C "$KTREE" config user.email sam@sender.test &&
	[ "$(wc -l <<<"$out")" = 1 ] &&
	grep -qx "swapnfs: ERROR: topic fx-net: refusing a real send from the placeholder address me@users.noreply.a-seed.example: set your own with git config --global user.email" <<<"$out"
'
expect_success 'a real send without an SMTP server is refused with one line (b4 is a stub that must not run)' '
	[ -z "$(git -C "$KTREE" config sendemail.smtpserver)" ] &&
	printf "#!/bin/sh\ntouch %s/b4-ran\nexit 1\n" "$tmp" >"$tmp/b4-stub" && chmod +x "$tmp/b4-stub" &&
	! out=$(SWAPNFS_TESTING= SWAPNFS_B4=$tmp/b4-stub GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.email \
		GIT_CONFIG_VALUE_0=sam@sender.org scripts/topic send --reflect -o "$tmp/o-nosmtp" "$FIX/fx-net" 2>&1 </dev/null) &&
	[ ! -e "$tmp/b4-ran" ] &&
	grep -qx "swapnfs: ERROR: topic fx-net: no SMTP server: git config --global sendemail.smtpserver HOST (or --smtp HOST:PORT)" <<<"$out"
'
expect_success 'a send refuses a Fixes: line without the upstream form' '
	cp -r "$FIX/fx-net" "$tmp/fx-fixes" &&
	sed -i "0,/^Signed-off-by:/s//Fixes: 850cbaddb52d udp: no quotes\n&/" "$tmp/fx-fixes"/0001-*.patch &&
	! out=$(scripts/topic send -o "$tmp/o-fixes" "$tmp/fx-fixes" 2>&1) &&
	grep -q "topic fx-fixes: a Fixes: line is not .*0001-net-add-a-fixture-comment-to-sock.c.patch line [0-9]*: Fixes: 850cbaddb52d udp: no quotes" <<<"$out" &&
	sed -i "s/^Fixes: .*/Fixes: 850cbaddb52d (\"udp: use it'"'"'s own memory accounting schema\")/" "$tmp/fx-fixes"/0001-*.patch &&
	scripts/topic fixes "$tmp/fx-fixes" | grep -q "^0001-.*: Fixes: 850cbaddb52d (\"udp:.*# NOT verified" &&
	! out=$(scripts/topic send --send --smtp "127.0.0.1:$port" -o "$tmp/o-fixes" "$tmp/fx-fixes" 2>&1 </dev/null) &&
	grep -qx "swapnfs: ERROR: topic fx-fixes: Fixes: 850cbaddb52d not verified upstream (check by hand, then add to fixes_verified in topic.conf; scripts/topic fixes fx-fixes)" <<<"$out" &&
	echo "fixes_verified=\"850cbaddb52d\"" >>"$tmp/fx-fixes/topic.conf" &&
	scripts/topic fixes "$tmp/fx-fixes" | grep -q "^0001-.*: Fixes: 850cbaddb52d (\"udp:.*# verified upstream"
'

# The reroll round trip: v1 to the sink, a reply with a Reviewed-by, the
# trailer collected into the patch files, v2 to the sink, git am of v2.
mkdir -p "$tmp/rt" && cp -r "$FIX/fx-sunrpc" "$tmp/rt/fx-rr" && rm -f "$tmp/rt/fx-rr/send.expected"
mails() { # mails MSGID-PART OUT: the captured mails of one revision as an mbox, in series order
	/usr/bin/python3 - "$tmp/maildir" "$2" "$1" <<'PY'
import mailbox, re, sys
src, out, part = sys.argv[1:4]
msgs = []
for key, m in mailbox.Maildir(src, factory=None, create=False).items():
    if part not in str(m.get('Message-Id', '')):
        continue
    subj = ' '.join(str(m['Subject']).split())
    n = re.search(r'\[PATCH[^\]]*?(\d+)/(\d+)\]', subj)
    msgs.append((int(n.group(1)) if n else 1, m))
with open(out, 'w') as fh:
    for idx, m in sorted(msgs, key=lambda x: x[0]):
        fh.write('From mboxrd@z Thu Jan  1 00:00:00 1970\n' + m.as_string(unixfrom=False) + '\n')
print(len(msgs))
PY
}
expect_success 'reroll: v1 goes out as v1, is tagged sent/NAME-v1 and recorded' '
	scripts/topic branch "$tmp/rt/fx-rr" >/dev/null &&
	out=$(scripts/topic send --send --smtp "127.0.0.1:$port" -o "$tmp/o-rr1" "$tmp/rt/fx-rr" 2>&1 <<<"") &&
	grep -q "^fx-rr: sent v1, message-id <.*>, tagged sent/fx-rr-v1" <<<"$out" &&
	[ "$(mails "-b4-fx-rr-v1-" "$tmp/rr1.mbox")" = 3 ] &&
	grep -q "^Subject: \[PATCH 1/2\] SUNRPC: say what" "$tmp/rr1.mbox" &&
	grep -q "^From: Sam Sender <sam@sender.test>" "$tmp/rr1.mbox" &&
	grep -q "^Signed-off-by: Sam Sender <sam@sender.test>" "$tmp/rr1.mbox" &&
	! grep -q "noreply" "$tmp/rr1.mbox" &&
	git -C "$KTREE" rev-parse -q --verify sent/fx-rr-v1 >/dev/null &&
	cid=$(sed -n "s/^change-id: //p" "$tmp/rr1.mbox" | head -n1) && [ -n "$cid" ] &&
	awk -F"\t" "\$2 == \"fx-rr\" && \$3 == \"v1\" && \$7 == \"send\"" "$SWAPNFS_CACHE/sent.log" | grep -q . &&
	scripts/topic list "$tmp/rt" | grep -qE "^fx-rr +2 .* v1 " &&
	scripts/topic list "$tmp/rt" | grep -qE " fx-rr +v1 +send .*<?[^ ]+@"
'
expect_success 'reroll: a reply with Reviewed-by is collected into the patch file' '
	mid=$(/usr/bin/python3 -c "import mailbox,sys; print([m[\"Message-Id\"] for m in mailbox.mbox(sys.argv[1]) if \"[PATCH 1/2]\" in m[\"Subject\"]][0])" "$tmp/rr1.mbox") &&
	{ cat "$tmp/rr1.mbox"; printf "%s\n" "From mboxrd@z Thu Jan  1 00:00:00 1970" \
		"From: Rev Iewer <rev@reviewer.test>" "To: Sam Sender <sam@sender.test>" \
		"Subject: Re: [PATCH 1/2] SUNRPC: say what a transport is in the xprt.c header" \
		"Message-Id: <reply-1@reviewer.test>" "In-Reply-To: $mid" "References: $mid" \
		"Date: Fri, 4 Dec 2026 12:00:00 +0000" "" "> quoted" "" "Looks right." "" \
		"Reviewed-by: Rev Iewer <rev@reviewer.test>" ""; } >"$tmp/thread.mbox" &&
	out=$(scripts/topic trailers "$tmp/rt/fx-rr" "$tmp/thread.mbox" 2>&1) &&
	grep -q "fx-rr: 1 trailers collected" <<<"$out" &&
	grep -qx "Reviewed-by: Rev Iewer <rev@reviewer.test>" "$tmp/rt/fx-rr"/0001-*.patch &&
	! grep -q "Reviewed-by" "$tmp/rt/fx-rr"/0002-*.patch
'
expect_success 'reroll: v2 without "Changes in v2" is refused for a real send' '
	! out=$(scripts/topic send --send --smtp "127.0.0.1:$port" -o "$tmp/o-rr2" "$tmp/rt/fx-rr" 2>&1 <<<"") &&
	grep -q "this is v2: .*cover-letter needs a \"Changes in v2\" section" <<<"$out"
'
expect_success 'reroll: v2 goes out as v2 with the same change-id, a range-diff, and git am shows the trailer' '
	printf "\nChanges in v2:\n- Reviewed-by of Rev Iewer on 1/2.\n" >>"$tmp/rt/fx-rr/cover-letter" &&
	out=$(scripts/topic send --send --smtp "127.0.0.1:$port" -o "$tmp/o-rr2" "$tmp/rt/fx-rr" 2>&1 <<<"") &&
	grep -q "^fx-rr: sent v2" <<<"$out" &&
	[ "$(mails "-b4-fx-rr-v2-" "$tmp/rr2.mbox")" = 3 ] &&
	grep -q "^Subject: \[PATCH v2 0/2\]" "$tmp/rr2.mbox" &&
	grep -q "^Subject: \[PATCH v2 1/2\] SUNRPC: say what" "$tmp/rr2.mbox" &&
	grep -qx "change-id: $cid" "$tmp/rr2.mbox" &&
	grep -q "^1:  [0-9a-f]* ! 1:  [0-9a-f]* SUNRPC: say what" "$tmp/o-rr2/range-diff-v1" &&
	grep -q "Reviewed-by: Rev Iewer" "$tmp/o-rr2/range-diff-v1" &&
	wt=$SWAPNFS_CACHE/wt/topic && git -C "$wt" checkout -q -f --detach v6.1.192 &&
	sed -n "/^From mboxrd/,\$p" "$tmp/rr2.mbox" | awk "/^From mboxrd/ {n++} n >= 2" >"$tmp/rr2-patches.mbox" &&
	git -C "$wt" am -q "$tmp/rr2-patches.mbox" &&
	git -C "$wt" log -1 --format=%B HEAD~1 | grep -qx "Reviewed-by: Rev Iewer <rev@reviewer.test>" &&
	git -C "$wt" diff --quiet sent/fx-rr-v2 HEAD &&
	[ "$(awk -F"\t" "\$2 == \"fx-rr\" && \$7 == \"send\" {print \$3}" "$SWAPNFS_CACHE/sent.log" | tr "\n" " ")" = "v1 v2 " ]
'
expect_success 'tag-sent tags the topic as a commit of this repository held it; range-diff compares' '
	out=$(scripts/topic tag-sent "$FIX/fx-mm" v5 HEAD) &&
	grep -q "^sent/fx-mm-v5: 1 patches of tests/fixtures/topics/fx-mm at [0-9a-f]* on v6.1.192" <<<"$out" &&
	git -C "$KTREE" diff --quiet sent/fx-mm-v5 topic/fx-mm &&
	scripts/topic tag-sent "$FIX/fx-mm" v5 HEAD | grep -q "already tagged" &&
	out=$(scripts/topic range-diff "$FIX/fx-mm") && grep -q "^1:  [0-9a-f]* = 1:  [0-9a-f]* mm: note" <<<"$out" &&
	! out=$(scripts/topic tag-sent "$FIX/fx-mm" 5 2>&1) && grep -qx "swapnfs: ERROR: topic tag-sent: .5. is not vN (e.g. v1)" <<<"$out"
'

git -C "$SWAPNFS_CACHE/wt/topic" am --abort >/dev/null 2>&1
done_testing
