// Original file: packages/core/proto/binring/v1/storage.proto

import type { Target as _binring_v1_Target, Target__Output as _binring_v1_Target__Output } from '../../binring/v1/Target.js';
import type { Stamp as _binring_v1_Stamp, Stamp__Output as _binring_v1_Stamp__Output } from '../../binring/v1/Stamp.js';
import type { Long } from '@grpc/proto-loader';

/**
 * Set, ListAppend and ListRemove. Without a stamp the backend stamps the
 * entry itself with its clock (raised to at_least first).
 */
export interface SetRequest {
  'target'?: (_binring_v1_Target | null);
  'key'?: (string);
  'value'?: (string);
  'stamp'?: (_binring_v1_Stamp | null);
  'atLeast'?: (number | string | Long);
  'writer'?: (string);
  'seq'?: (number);
  /**
   * A stamped entry forwarded under a claim (ClaimRequest): a backend that
   * fenced this write takes its entries only under the claim that fenced it.
   */
  'claim'?: (string);
  /**
   * Set only, stamped, and only on a link from a backend (with TLS, one
   * holding a backend certificate): the replicas after this one in the
   * write's replica list, at most 7. The backend takes the entry at once but
   * withholds it: a read that could show it is answered only once each of
   * them holds it too (a ReleaseRequest says so, or the backend's own forward
   * to them), so what a reader sees on a replica is on every replica after it
   * (docs/HAZARDS.md 1).
   */
  'laterReplicas'?: (string)[];
}

/**
 * Set, ListAppend and ListRemove. Without a stamp the backend stamps the
 * entry itself with its clock (raised to at_least first).
 */
export interface SetRequest__Output {
  'target': (_binring_v1_Target__Output | null);
  'key': (string);
  'value': (string);
  'stamp': (_binring_v1_Stamp__Output | null);
  'atLeast': (string);
  'writer': (string);
  'seq': (number);
  /**
   * A stamped entry forwarded under a claim (ClaimRequest): a backend that
   * fenced this write takes its entries only under the claim that fenced it.
   */
  'claim': (string);
  /**
   * Set only, stamped, and only on a link from a backend (with TLS, one
   * holding a backend certificate): the replicas after this one in the
   * write's replica list, at most 7. The backend takes the entry at once but
   * withholds it: a read that could show it is answered only once each of
   * them holds it too (a ReleaseRequest says so, or the backend's own forward
   * to them), so what a reader sees on a replica is on every replica after it
   * (docs/HAZARDS.md 1).
   */
  'laterReplicas': (string)[];
}
