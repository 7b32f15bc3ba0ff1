// Original file: packages/core/proto/binring/v1/keeper.proto

import type { BackendState as _binring_v1_BackendState, BackendState__Output as _binring_v1_BackendState__Output } from '../../binring/v1/BackendState.js';
import type { Long } from '@grpc/proto-loader';

/**
 * One backend as the view publishes it (never SUSPECT: a suspect backend is
 * still in placement, and flapping must not churn epochs). Only the keeper
 * that owns the backend changes it, bumping version; merging keeps the higher version (ties: the
 * larger keeper address), so every keeper converges on the same content.
 */
export interface PublishedBackend {
  'address'?: (string);
  'state'?: (_binring_v1_BackendState);
  'version'?: (number | string | Long);
  /**
   * the incarnation the owner vouches for: only it may have its lease renewed
   */
  'incarnation'?: (string);
  /**
   * the keeper that set this version
   */
  'by'?: (string);
  /**
   * as in BackendView
   */
  'repairing'?: (boolean);
}

/**
 * One backend as the view publishes it (never SUSPECT: a suspect backend is
 * still in placement, and flapping must not churn epochs). Only the keeper
 * that owns the backend changes it, bumping version; merging keeps the higher version (ties: the
 * larger keeper address), so every keeper converges on the same content.
 */
export interface PublishedBackend__Output {
  'address': (string);
  'state': (_binring_v1_BackendState__Output);
  'version': (string);
  /**
   * the incarnation the owner vouches for: only it may have its lease renewed
   */
  'incarnation': (string);
  /**
   * the keeper that set this version
   */
  'by': (string);
  /**
   * as in BackendView
   */
  'repairing': (boolean);
}
