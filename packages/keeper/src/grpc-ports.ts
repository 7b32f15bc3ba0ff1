// The keeper's ports over gRPC: a BackendChannel per backend and a PeerChannel
// per peer keeper, each opened when first called (members join at runtime).
import { BackendChannel } from "@binring/client";
import type { TlsFiles } from "@binring/core";
import type { KeeperPorts } from "./keeper-ports.js";
import { PeerChannel } from "./peer-channel.js";

export function grpcPorts(options: {
  callTimeoutMs: number;
  /** The keeper's own certificate: every call it makes presents it. */
  tls?: TlsFiles;
}): KeeperPorts {
  const backends = new Map<string, BackendChannel>();
  const peers = new Map<string, PeerChannel>();
  return {
    backend: (address) =>
      opened(
        backends,
        address,
        () => new BackendChannel(address, { callTimeoutMs: options.callTimeoutMs, tls: options.tls }),
      ),
    peer: (address) => opened(peers, address, () => new PeerChannel(address, options.tls)),
    close() {
      for (const backend of backends.values()) backend.close();
      for (const peer of peers.values()) peer.close();
    },
  };
}

function opened<T>(channels: Map<string, T>, address: string, open: () => T): T {
  let channel = channels.get(address);
  if (!channel) {
    channel = open();
    channels.set(address, channel);
  }
  return channel;
}
