// Original file: packages/core/proto/binring/v1/keeper.proto


export interface RemoveBackendRequest {
  'address'?: (string);
}

export interface RemoveBackendRequest__Output {
  'address': (string);
}
