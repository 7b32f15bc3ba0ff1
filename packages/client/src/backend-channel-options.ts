// The gRPC channel options of a BackendChannel (backend-channel.ts): how it
// reconnects, the message size limits, keepalive, and a connection of its own.
import { MAX_MESSAGE_BYTES } from "@binring/core";
import type * as grpc from "@grpc/grpc-js";

export const BACKEND_CHANNEL_OPTIONS: grpc.ChannelOptions = {
  // Reconnect quickly after a backend restarts instead of grpc-js' default backoff of up to 2 minutes.
  "grpc.initial_reconnect_backoff_ms": 100,
  "grpc.max_reconnect_backoff_ms": 1000,
  "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
  "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  "grpc.keepalive_time_ms": 10_000,
  "grpc.keepalive_timeout_ms": 5_000,
  // A connection of this client's own. grpc-js otherwise shares one HTTP/2
  // connection between every client in the process with the same target and
  // options, and each closed client resets its stream on it: after about a
  // thousand resets the backend's HTTP/2 layer takes the connection for a
  // rapid-reset attack and closes it (code 2), failing every other client's calls.
  "grpc.use_local_subchannel_pool": 1,
};
