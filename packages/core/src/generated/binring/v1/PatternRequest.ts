// Original file: packages/core/proto/binring/v1/storage.proto

import type { Target as _binring_v1_Target, Target__Output as _binring_v1_Target__Output } from '../../binring/v1/Target.js';

export interface PatternRequest {
  'target'?: (_binring_v1_Target | null);
  'prefix'?: (string);
  'suffix'?: (string);
}

export interface PatternRequest__Output {
  'target': (_binring_v1_Target__Output | null);
  'prefix': (string);
  'suffix': (string);
}
