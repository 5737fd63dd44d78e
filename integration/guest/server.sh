# SPDX-License-Identifier: GPL-2.0
# Server guest: exports /export (ext4 on the virtio disk the host prepared)
# over NFSv3 and v4.x with Debian's nfs-kernel-server userspace, and serves
# the NBD swap device from the same file system, to the client only.
# Then it runs commands the host sends on the second serial port.
net_up "$SERVER_IP" || echo "SWAPNFS-RESULT fail no network"
mkdir -p /export
mount -t ext4 /dev/vda /export || echo "SWAPNFS-RESULT fail cannot mount /dev/vda"
mount -t nfsd nfsd /proc/fs/nfsd
mkdir -p /var/lib/nfs/v4recovery /run/rpcbind /var/lib/nfs/rpc_pipefs
: >/var/lib/nfs/etab
: >/var/lib/nfs/rmtab
# A diskless client's root (a scenario with NFSROOT): the host put the
# client's archives in /nfsroot (its initramfs, the tools only the NFS
# root has, the scenario).  Unpack them in order into /export/nfsroot and
# move the swap file in, where a diskless install keeps it.
if [ -d /nfsroot ]; then
	mkdir -p /export/nfsroot && for a in /nfsroot/*.cpio.gz; do
		(cd /export/nfsroot && gunzip -c "$a" | cpio -i -d -m -u 2>/dev/null) || break
	done && mv /export/swapfile /export/nfsroot/swapfile &&
		echo "SWAPNFS-INFO nfsroot: $(find /export/nfsroot | wc -l) entries" ||
		echo "SWAPNFS-RESULT fail unpacking the client's NFS root failed"
	rm -rf /nfsroot
fi
command -v server_main >/dev/null && server_main
rpcbind -w
# EXPORT_EXTRA (a scenario setting or SWAPNFS_EXPORT_EXTRA) adds export
# options, e.g. pnfs; a later "async" overrides the "sync" here.
exportfs -o "rw,sync,no_root_squash,no_subtree_check,insecure${EXPORT_EXTRA:+,$EXPORT_EXTRA}" \
	"$CLIENT_IP:/export"
echo "SWAPNFS-EXPORT $(cat /var/lib/nfs/etab)"
rpc.mountd --port 20048
# Short lease and grace so that a restart in a fault scenario does not
# stall the client for 90 s.
rpc.nfsd --grace-time 15 --lease-time 15 8 ||
	echo "SWAPNFS-RESULT fail rpc.nfsd failed"
nbd-server -C /etc/nbd-server/config ||
	echo "SWAPNFS-RESULT fail nbd-server failed"
echo "SWAPNFS-SERVER-READY"

# Host control channel: one shell command a line, answered with its
# output and a done marker carrying the exit status.
exec </dev/ttyS1
while read -r line; do
	id=${line%% *}
	cmd=${line#* }
	sh -c "$cmd" >/tmp/ctl.out 2>&1
	rc=$?
	sed 's/^/SWAPNFS-CTL-OUT /' /tmp/ctl.out >/dev/ttyS1
	echo "SWAPNFS-CTL-DONE $id $rc" >/dev/ttyS1
	[ "$cmd" = shutdown ] && break
done
