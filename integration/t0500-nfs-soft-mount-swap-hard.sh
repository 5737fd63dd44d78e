#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Swap on a soft NFSv3 mount (timeo=10,retrans=1: an RPC gives up after a
# few seconds) while nfsd is stopped for 30 s: every swap I/O waits for
# the server as on a hard mount, no process is killed, every page
# verifies, swapoff reads every page back.
#
# Why it matters: swapon accepts a swap file on a soft mount, and such
# setups exist.  On 6.1 a swap-in that times out there kills the process
# owning the page with SIGBUS.  v1 of the nfs/ series refused the swapon,
# which would break those setups on upgrade; v2 makes swap I/O hard
# whatever the mount says.
# tags: ci nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="soft NFSv3 mount, nfsd down 30 s during swap: swap I/O retries, no SIGBUS, every page verified"
SCENARIO_GAP="6.1 lets swap I/O on a soft mount time out: the owner of a page that cannot be read back gets SIGBUS"
. "$(dirname "$0")/nfs-soft-swap.inc"
NFS_OPTS=vers=3,proto=tcp,soft,timeo=10,retrans=1
run_scenario "$@"
