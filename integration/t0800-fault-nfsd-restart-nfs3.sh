#!/bin/bash
# Fault: nfsd in the server guest is stopped and restarted while the
# client is deep in the swap stress (NFSv3/TCP).  Swap I/O must stall and
# resume, never fail: every page verifies, no hung task.
# tags: ci fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="nfsd restarted during swap over NFSv3: no page lost"
. "$(dirname "$0")/fault-nfsd-restart.inc"
NFS_OPTS=vers=3,proto=tcp,hard
run_scenario "$@"
