// Original file: proto/binring/v1/storage.proto


/**
 * A failed operation inside a batch: a gRPC status code and its message.
 */
export interface OperationError {
  'code'?: (number);
  'message'?: (string);
}

/**
 * A failed operation inside a batch: a gRPC status code and its message.
 */
export interface OperationError__Output {
  'code': (number);
  'message': (string);
}
