#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# client link cut while swapping over NFSv4.2.
# The fault and its claim are defined once, for every protocol, in
# integration/fault-link-cut.inc.
# tags: fault
. "$(dirname "$0")/lib.sh"
fault_scenario link-cut 4.2 "$@"
