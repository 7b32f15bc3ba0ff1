// Original file: packages/core/proto/binring/v1/keeper.proto

import type { BackendView as _binring_v1_BackendView, BackendView__Output as _binring_v1_BackendView__Output } from '../../binring/v1/BackendView.js';
import type { Long } from '@grpc/proto-loader';

/**
 * Same epoch means same content; the epoch grows on every change.
 */
export interface ClusterView {
  'epoch'?: (number | string | Long);
  'backends'?: (_binring_v1_BackendView)[];
  /**
   * the keepers on the keeper ring and those leaving it: clients ask them for
   * views too, so a client follows keepers added after its cluster file
   */
  'keepers'?: (string)[];
}

/**
 * Same epoch means same content; the epoch grows on every change.
 */
export interface ClusterView__Output {
  'epoch': (string);
  'backends': (_binring_v1_BackendView__Output)[];
  /**
   * the keepers on the keeper ring and those leaving it: clients ask them for
   * views too, so a client follows keepers added after its cluster file
   */
  'keepers': (string)[];
}
