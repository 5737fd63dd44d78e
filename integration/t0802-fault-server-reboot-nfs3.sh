#!/bin/bash
# Fault: the server guest is powered off without warning while the client
# is deep in swap over NFSv3, and boots again 10 s later.  Swap I/O stalls
# and resumes: every page verifies, no hung task.
# tags: fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="server guest crashed and rebooted during swap over NFSv3: no page lost"
. "$(dirname "$0")/fault-server-reboot.inc"
NFS_OPTS=vers=3,proto=tcp,hard
run_scenario "$@"
