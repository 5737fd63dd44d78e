#!/bin/bash
# Fault: packet loss and delay (tc netem) on the server's interface while
# the client swaps over NFSv3.
# tags: fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="2% loss and 20 ms delay on the server for 60 s during swap over NFSv3: no page lost"
. "$(dirname "$0")/fault-netem.inc"
NFS_OPTS=vers=3,proto=tcp,hard
run_scenario "$@"
