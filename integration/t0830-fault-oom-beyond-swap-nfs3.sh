#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# memory pressure beyond RAM + swap over NFSv3.
# The fault and its claim are defined once, for every protocol, in
# integration/fault-oom.inc.
# tags: fault
. "$(dirname "$0")/lib.sh"
fault_scenario oom 3 "$@"
