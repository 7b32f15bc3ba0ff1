// Original file: packages/core/proto/binring/v1/storage.proto


export interface KeepersRequest {
}

export interface KeepersRequest__Output {
}
