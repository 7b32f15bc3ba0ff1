// Original file: packages/core/proto/binring/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

/**
 * Which data the call is about, and which view of the cluster the caller
 * acts on. epoch 0 means "no view": the backend does not fence the call.
 */
export interface Target {
  'bin'?: (string);
  'epoch'?: (number | string | Long);
  /**
   * Reads only: refuse with FAILED_PRECONDITION unless this backend is ready.
   */
  'requireReady'?: (boolean);
}

/**
 * Which data the call is about, and which view of the cluster the caller
 * acts on. epoch 0 means "no view": the backend does not fence the call.
 */
export interface Target__Output {
  'bin': (string);
  'epoch': (string);
  /**
   * Reads only: refuse with FAILED_PRECONDITION unless this backend is ready.
   */
  'requireReady': (boolean);
}
