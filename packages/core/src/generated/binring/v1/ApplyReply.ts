// Original file: packages/core/proto/binring/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

export interface ApplyReply {
  'applied'?: (number | string | Long);
  /**
   * the backend's clock after applying (above every stamp it stores)
   */
  'clock'?: (number | string | Long);
}

export interface ApplyReply__Output {
  'applied': (string);
  /**
   * the backend's clock after applying (above every stamp it stores)
   */
  'clock': (string);
}
