// Original file: packages/core/proto/binring/v1/storage.proto


export interface ReleaseReply {
}

export interface ReleaseReply__Output {
}
