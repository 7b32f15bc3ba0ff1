// Original file: proto/binring/v1/keeper.proto


export interface GetViewRequest {
}

export interface GetViewRequest__Output {
}
