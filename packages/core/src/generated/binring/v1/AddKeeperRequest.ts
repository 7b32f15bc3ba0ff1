// Original file: packages/core/proto/binring/v1/keeper.proto


export interface AddKeeperRequest {
  'address'?: (string);
}

export interface AddKeeperRequest__Output {
  'address': (string);
}
