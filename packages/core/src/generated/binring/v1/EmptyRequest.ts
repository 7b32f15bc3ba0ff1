// Original file: packages/core/proto/binring/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

export interface EmptyRequest {
  /**
   * the incarnation the keeper heard and means to empty
   */
  'incarnation'?: (string);
  /**
   * the caller's term as the backend's owner: refused unless it is the
   * backend's current one (0 is taken only while no keeper has claimed it)
   */
  'ownerTerm'?: (number | string | Long);
}

export interface EmptyRequest__Output {
  /**
   * the incarnation the keeper heard and means to empty
   */
  'incarnation': (string);
  /**
   * the caller's term as the backend's owner: refused unless it is the
   * backend's current one (0 is taken only while no keeper has claimed it)
   */
  'ownerTerm': (string);
}
