// Original file: packages/core/proto/binring/v1/keeper.proto


export interface StatusRequest {
}

export interface StatusRequest__Output {
}
