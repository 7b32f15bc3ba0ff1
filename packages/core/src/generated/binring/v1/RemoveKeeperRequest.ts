// Original file: packages/core/proto/binring/v1/keeper.proto


export interface RemoveKeeperRequest {
  'address'?: (string);
}

export interface RemoveKeeperRequest__Output {
  'address': (string);
}
