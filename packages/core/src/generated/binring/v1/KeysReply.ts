// Original file: packages/core/proto/binring/v1/storage.proto


export interface KeysReply {
  'keys'?: (string)[];
}

export interface KeysReply__Output {
  'keys': (string)[];
}
