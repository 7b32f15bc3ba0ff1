// Original file: packages/core/proto/binring/v1/storage.proto


export interface ListGetReply {
  'values'?: (string)[];
}

export interface ListGetReply__Output {
  'values': (string)[];
}
