// Original file: packages/core/proto/binring/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

export interface EmptyReply {
  'bins'?: (number | string | Long);
  /**
   * the incarnation after the empty: the one a fill may make ready
   */
  'incarnation'?: (string);
}

export interface EmptyReply__Output {
  'bins': (string);
  /**
   * the incarnation after the empty: the one a fill may make ready
   */
  'incarnation': (string);
}
