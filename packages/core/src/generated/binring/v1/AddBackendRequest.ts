// Original file: packages/core/proto/binring/v1/keeper.proto


export interface AddBackendRequest {
  'address'?: (string);
  /**
   * failure domain; empty: none
   */
  'zone'?: (string);
}

export interface AddBackendRequest__Output {
  'address': (string);
  /**
   * failure domain; empty: none
   */
  'zone': (string);
}
