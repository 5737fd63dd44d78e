#!/bin/bash
# Fault: the client's link is cut for longer than the RPC timeout (QEMU
# monitor set_link) while it swaps over NFSv4.2, then restored.  A hard
# mount retries; every page verifies once the link is back.
# tags: fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="link cut for 75 s during swap over NFSv4.2: no page lost"
. "$(dirname "$0")/fault-link-cut.inc"
NFS_OPTS=vers=4.2,proto=tcp,hard,timeo=100,retrans=2
run_scenario "$@"
