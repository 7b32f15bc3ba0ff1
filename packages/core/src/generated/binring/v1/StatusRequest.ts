// Original file: proto/binring/v1/keeper.proto


export interface StatusRequest {
}

export interface StatusRequest__Output {
}
