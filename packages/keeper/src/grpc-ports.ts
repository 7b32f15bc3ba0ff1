// The keeper's ports over gRPC: a BackendChannel per backend, opened when
// first called (members join at runtime), and a PeerChannel per peer keeper.
import { BackendChannel } from "@binring/client";
import type { TlsFiles } from "@binring/core";
import type { KeeperPorts } from "./keeper-ports.js";
import { PeerChannel } from "./peer-channel.js";

export function grpcPorts(options: {
  peers: readonly string[];
  callTimeoutMs: number;
  /** The keeper's own certificate: every call it makes presents it. */
  tls?: TlsFiles;
}): KeeperPorts {
  const backends = new Map<string, BackendChannel>();
  const backend = (address: string) => {
    let channel = backends.get(address);
    if (!channel) {
      channel = new BackendChannel(address, { callTimeoutMs: options.callTimeoutMs, tls: options.tls });
      backends.set(address, channel);
    }
    return channel;
  };
  const peers = new Map(options.peers.map((address) => [address, new PeerChannel(address, options.tls)]));
  return {
    backend,
    peer: (address) => found(peers, address, "keeper"),
    close() {
      for (const backend of backends.values()) backend.close();
      for (const peer of peers.values()) peer.close();
    },
  };
}

function found<T>(members: ReadonlyMap<string, T>, address: string, role: string): T {
  const member = members.get(address);
  if (!member) throw new Error(`${address} is not a ${role} of this cluster`);
  return member;
}
