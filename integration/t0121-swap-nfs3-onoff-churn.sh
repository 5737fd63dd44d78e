#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# swapon/swapoff churn of two NFSv3 swap files under the stress.
# The fault and its claim are defined once, for every protocol, in
# integration/fault-onoff-churn.inc.
# tags: fault
. "$(dirname "$0")/lib.sh"
fault_scenario onoff-churn 3 "$@"
