#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# b4 round trip of the fixture topics: b4 send -o gives the checked-in
# To/Cc (drift fails), and a send through b4 to an SMTP sink on 127.0.0.1
# (aiosmtpd, Debian's python3-aiosmtpd) gives mails that git am turns
# back into exactly the tree of the topic branch.
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

git -C "$SWAPNFS_CACHE/wt/topic" am --abort >/dev/null 2>&1
done_testing
