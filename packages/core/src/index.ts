// @binring/core: the parts every other package shares — the entry model,
// stamps, limits, errors, the hash ring, the wire contract and its transport
// security. No sockets; the only files it reads are the protos of its own
// package and the TLS files a caller names.

export {
  type ClusterConfig,
  MAX_CALL_TIMEOUT_MS,
  parseClusterConfig,
  ringMembers,
} from "./cluster-config.js";
export type { ApplyOutcome, Entry, EntryKind } from "./entry.js";
export {
  applyRequestOfFrames,
  type EntryFrame,
  encodeEntryBatch,
  splitEntryFrames,
} from "./entry-frames.js";
export {
  AnotherMemberError,
  BinringError,
  ClockBehindError,
  ConnectionRefusedError,
  type ErrorDetails,
  errorDetails,
  errorFromStatus,
  InvalidArgumentError,
  ListFullError,
  NotReadyError,
  OutcomeUnknownError,
  OutOfRangeError,
  PermissionDeniedError,
  ReplyTooLargeError,
  ResourceExhaustedError,
  StaleEpochError,
  StatusCode,
  type StatusCodeValue,
  StoreUnavailableError,
  SupersededAttemptError,
  TimeoutError,
  UnavailableError,
  type WriteProgress,
} from "./errors.js";
export { ringPoint } from "./hash.js";
export { formatHostPort, type HostPort, isWildcardHost, parseHostPort } from "./host-port.js";
export { type HttpRoute, requestPath, startHttpEndpoint } from "./http-endpoint.js";
export {
  checkString,
  checkTransportable,
  DEFAULT_LIMITS,
  LIMIT_CEILINGS,
  type Limits,
  MAX_MESSAGE_BYTES,
  MAX_OPERATIONS_PER_MESSAGE,
  MAX_RESULT_BYTES,
  MAX_SCAN_BATCH,
  MESSAGE_BUDGET_BYTES,
  parseLimits,
  utf8Bound,
} from "./limits.js";
export { FrameReader, frame, LINK_MAGIC, MAX_FRAME_BYTES } from "./link-frames.js";
export {
  isBackendAddress,
  isWildcardAddress,
  KEEPER_SLOTS,
  MAX_MEMBER_RECORDS,
  type MemberKind,
  type MemberRecord as Member,
  type MemberStatus as MembershipStatus,
  memberAddressProblem,
  memberStatusToWire,
  membersDigest,
  membersFromWire,
  memberToWire,
  mergeMembers,
  newerMember,
  sameMember,
  seedMembers,
  zoneProblem,
} from "./membership.js";
export { decodeBatchReply, decodeBatchRequest } from "./pipe-decode.js";
export { encodeBatchReply, encodeBatchRequest } from "./pipe-encode.js";
export { addProcessMetrics } from "./process-metrics.js";
export { checkBinName, RESERVED_BIN_PREFIX } from "./reserved-bins.js";
export {
  DEFAULT_VIRTUAL_NODES,
  HashRing,
  type HashRingOptions,
  REPLICAS,
  type RingMember,
  type RingSegment,
} from "./ring.js";
export { pointInRange, RING_SIZE, type RingRange, unwrappedIntervals, WHOLE_RING } from "./ring-range.js";
export {
  checkStamp,
  checkWriterId,
  compareStamps,
  decodeStamp,
  ENCODED_STAMP_LENGTH,
  encodeStamp,
  newWriterId,
  type Stamp,
} from "./stamp.js";
export { type KeyPattern, matchesPattern, type Storage } from "./storage.js";
export { MAX_TIMER_MS } from "./timer-bounds.js";
export {
  certificateRole,
  clientSecurity,
  ROLES,
  type Role,
  roleFiles,
  SERVICE_ROLES,
  securedServerOptions,
  serverCredentials,
  TLS_SERVER_NAME,
  type TlsFiles,
  tlsIdentity,
} from "./transport-security.js";
export { TurnBatch } from "./turn-batch.js";
export { Undecodable, withTolerantDecoding } from "./undecodable.js";
export {
  CLOCK_CEILING,
  checkClock,
  checkClockJump,
  checkEpoch,
  EPOCH_CEILING,
  MAX_CLOCK_JUMP,
} from "./value-bounds.js";
export {
  bigintToWire,
  entryFromWire,
  entryToWire,
  fromOperationError,
  fromServiceError,
  loadProtocol,
  PROTO_DIR,
  stampFromWire,
  stampToWire,
  toOperationError,
  toServiceError,
  wireToBigint,
} from "./wire.js";
export type * from "./wire-types.js";
