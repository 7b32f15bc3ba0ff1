// Original file: packages/core/proto/binring/v1/storage.proto


export interface EmptyRequest {
  /**
   * the incarnation the keeper heard and means to empty
   */
  'incarnation'?: (string);
}

export interface EmptyRequest__Output {
  /**
   * the incarnation the keeper heard and means to empty
   */
  'incarnation': (string);
}
