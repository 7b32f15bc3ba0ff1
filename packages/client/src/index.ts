// @binring/client: the SDK. StorageClient talks to one backend; BinClient to a cluster of them.
export { BackendChannel, type BackendChannelOptions } from "./backend-channel.js";
export { Bin } from "./bin.js";
export { BinClient, type BinClientOptions, type Placement, REPLICAS } from "./bin-client.js";
export { parseSabotage, SABOTAGES, type Sabotage } from "./sabotage.js";
export { StorageClient, type StorageClientOptions } from "./storage-client.js";
