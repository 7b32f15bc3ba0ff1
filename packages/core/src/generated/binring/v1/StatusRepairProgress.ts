// Original file: packages/core/proto/binring/v1/keeper.proto

import type { Long } from '@grpc/proto-loader';

/**
 * A running repair's progress.
 */
export interface StatusRepairProgress {
  /**
   * found unfinished in the keeper log when this keeper took the backend over
   */
  'recovered'?: (boolean);
  'runningMs'?: (number | string | Long);
  'entriesCopied'?: (number | string | Long);
  'tasksDone'?: (number);
  'tasksTotal'?: (number);
  /**
   * UTF-8 bytes of the copied entries' bins, keys and values
   */
  'bytesCopied'?: (number | string | Long);
}

/**
 * A running repair's progress.
 */
export interface StatusRepairProgress__Output {
  /**
   * found unfinished in the keeper log when this keeper took the backend over
   */
  'recovered': (boolean);
  'runningMs': (string);
  'entriesCopied': (string);
  'tasksDone': (number);
  'tasksTotal': (number);
  /**
   * UTF-8 bytes of the copied entries' bins, keys and values
   */
  'bytesCopied': (string);
}
