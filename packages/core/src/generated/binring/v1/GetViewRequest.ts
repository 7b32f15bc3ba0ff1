// Original file: packages/core/proto/binring/v1/keeper.proto


export interface GetViewRequest {
}

export interface GetViewRequest__Output {
}
