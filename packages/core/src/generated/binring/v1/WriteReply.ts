// Original file: packages/core/proto/binring/v1/storage.proto

import type { Stamp as _binring_v1_Stamp, Stamp__Output as _binring_v1_Stamp__Output } from '../../binring/v1/Stamp.js';
import type { Long } from '@grpc/proto-loader';

export interface WriteReply {
  'stamp'?: (_binring_v1_Stamp | null);
  /**
   * ListRemove: occurrences removed by this entry, decided when the backend
   * first applied it.
   */
  'removed'?: (number | string | Long);
  /**
   * The backend was ready when it answered: it held every acknowledged entry,
   * so its `removed` is the count readers would have seen. For ListRemove,
   * only if the remove's own writer decided that count here while ready (not
   * a repair copy that brought the remove first).
   */
  'ready'?: (boolean);
  /**
   * ListAppend: a remove of the same value with a larger stamp got here
   * first, so this append never shows; the writer must restamp it above
   * `clock` and apply it again.
   */
  'superseded'?: (boolean);
  /**
   * The backend's clock after the write: above every stamp it stores.
   */
  'clock'?: (number | string | Long);
  /**
   * WriteRequest: how often the coordinator stamped the write again because
   * a remove had overtaken the append (see `superseded`).
   */
  'restamps'?: (number);
}

export interface WriteReply__Output {
  'stamp': (_binring_v1_Stamp__Output | null);
  /**
   * ListRemove: occurrences removed by this entry, decided when the backend
   * first applied it.
   */
  'removed': (string);
  /**
   * The backend was ready when it answered: it held every acknowledged entry,
   * so its `removed` is the count readers would have seen. For ListRemove,
   * only if the remove's own writer decided that count here while ready (not
   * a repair copy that brought the remove first).
   */
  'ready': (boolean);
  /**
   * ListAppend: a remove of the same value with a larger stamp got here
   * first, so this append never shows; the writer must restamp it above
   * `clock` and apply it again.
   */
  'superseded': (boolean);
  /**
   * The backend's clock after the write: above every stamp it stores.
   */
  'clock': (string);
  /**
   * WriteRequest: how often the coordinator stamped the write again because
   * a remove had overtaken the append (see `superseded`).
   */
  'restamps': (number);
}
