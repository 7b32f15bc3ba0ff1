// Original file: packages/core/proto/binring/v1/storage.proto

import type { EntryKind as _binring_v1_EntryKind, EntryKind__Output as _binring_v1_EntryKind__Output } from '../../binring/v1/EntryKind.js';
import type { SetRequest as _binring_v1_SetRequest, SetRequest__Output as _binring_v1_SetRequest__Output } from '../../binring/v1/SetRequest.js';

/**
 * A replicated write, sent once by the client to the backend that coordinates
 * it: the first of the bin's replicas that serves reads. The coordinator
 * stamps the entry with its own clock (it holds every acknowledged entry of
 * the bin, so the stamp is above all of theirs), applies it to every replica
 * listed — a set on all of them at once, each withholding it from readers
 * until the replicas after it have it; a list entry last backup first — and
 * answers once all have it (docs/ARCHITECTURE.md, "Write path").
 */
export interface WriteRequest {
  'kind'?: (_binring_v1_EntryKind);
  /**
   * target (bin, the caller's view epoch, require_ready as for a read), key,
   * value, writer and seq (which name this write across attempts), at_least
   * (the stamp's clock is at least this); stamp and claim only when an
   * earlier attempt reported them: the write keeps that stamp.
   */
  'entry'?: (_binring_v1_SetRequest | null);
  /**
   * The bin's live replicas as the caller sees them, primary first (at most 8).
   */
  'replicas'?: (string)[];
  /**
   * This backend's place in `replicas`.
   */
  'coordinator'?: (number);
  /**
   * An earlier attempt may have been applied under a stamp the caller never
   * learned (its coordinator died or did not answer): claim the write on every
   * replica first, and keep the stamp any of them holds.
   */
  'retry'?: (boolean);
  /**
   * How long the coordinator may take before it answers (at most 60000; 0: 2000).
   */
  'timeoutMs'?: (number);
}

/**
 * A replicated write, sent once by the client to the backend that coordinates
 * it: the first of the bin's replicas that serves reads. The coordinator
 * stamps the entry with its own clock (it holds every acknowledged entry of
 * the bin, so the stamp is above all of theirs), applies it to every replica
 * listed — a set on all of them at once, each withholding it from readers
 * until the replicas after it have it; a list entry last backup first — and
 * answers once all have it (docs/ARCHITECTURE.md, "Write path").
 */
export interface WriteRequest__Output {
  'kind': (_binring_v1_EntryKind__Output);
  /**
   * target (bin, the caller's view epoch, require_ready as for a read), key,
   * value, writer and seq (which name this write across attempts), at_least
   * (the stamp's clock is at least this); stamp and claim only when an
   * earlier attempt reported them: the write keeps that stamp.
   */
  'entry': (_binring_v1_SetRequest__Output | null);
  /**
   * The bin's live replicas as the caller sees them, primary first (at most 8).
   */
  'replicas': (string)[];
  /**
   * This backend's place in `replicas`.
   */
  'coordinator': (number);
  /**
   * An earlier attempt may have been applied under a stamp the caller never
   * learned (its coordinator died or did not answer): claim the write on every
   * replica first, and keep the stamp any of them holds.
   */
  'retry': (boolean);
  /**
   * How long the coordinator may take before it answers (at most 60000; 0: 2000).
   */
  'timeoutMs': (number);
}
