// Original file: packages/core/proto/binring/v1/keeper.proto


export interface StatusKeeper {
  'address'?: (string);
  /**
   * the keeper answering
   */
  'self'?: (boolean);
  'alive'?: (boolean);
  /**
   * the backends it owns, sorted
   */
  'slice'?: (string)[];
  /**
   * backends whose repair or fill it runs or has queued
   */
  'working'?: (string)[];
}

export interface StatusKeeper__Output {
  'address': (string);
  /**
   * the keeper answering
   */
  'self': (boolean);
  'alive': (boolean);
  /**
   * the backends it owns, sorted
   */
  'slice': (string)[];
  /**
   * backends whose repair or fill it runs or has queued
   */
  'working': (string)[];
}
