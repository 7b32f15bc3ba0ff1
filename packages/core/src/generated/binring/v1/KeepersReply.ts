// Original file: packages/core/proto/binring/v1/storage.proto


export interface KeepersReply {
  /**
   * Addresses of the keepers recorded as members, at most 16.
   */
  'keepers'?: (string)[];
}

export interface KeepersReply__Output {
  /**
   * Addresses of the keepers recorded as members, at most 16.
   */
  'keepers': (string)[];
}
