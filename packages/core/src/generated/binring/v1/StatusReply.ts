// Original file: proto/binring/v1/keeper.proto


export interface StatusReply {
  'json'?: (string);
}

export interface StatusReply__Output {
  'json': (string);
}
