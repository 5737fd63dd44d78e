#!/bin/bash
# Fault: nfsd restarted while the client swaps over NFSv4.2.  The restart
# starts a (short) grace period: the client must reclaim its open state
# and go on; every page verifies, no hung task.
# tags: fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="nfsd restarted during swap over NFSv4.2: no page lost"
. "$(dirname "$0")/fault-nfsd-restart.inc"
NFS_OPTS=vers=4.2,proto=tcp,hard
run_scenario "$@"
