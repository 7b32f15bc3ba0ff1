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
  /**
   * alive (backends hear its heartbeats) but the answering keeper cannot
   * reach it: a partition between keepers. Each keeps its own slice; repairs
   * wait for the two to hear each other again.
   */
  'cutOff'?: (boolean);
  /**
   * taken off the keeper ring, still handing its slice over
   */
  'leaving'?: (boolean);
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
  /**
   * alive (backends hear its heartbeats) but the answering keeper cannot
   * reach it: a partition between keepers. Each keeps its own slice; repairs
   * wait for the two to hear each other again.
   */
  'cutOff': (boolean);
  /**
   * taken off the keeper ring, still handing its slice over
   */
  'leaving': (boolean);
}
