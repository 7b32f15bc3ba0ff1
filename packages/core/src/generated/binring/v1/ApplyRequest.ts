// Original file: packages/core/proto/binring/v1/storage.proto

import type { Entry as _binring_v1_Entry, Entry__Output as _binring_v1_Entry__Output } from '../../binring/v1/Entry.js';
import type { Long } from '@grpc/proto-loader';

export interface ApplyRequest {
  'entries'?: (_binring_v1_Entry)[];
  'epoch'?: (number | string | Long);
}

export interface ApplyRequest__Output {
  'entries': (_binring_v1_Entry__Output)[];
  'epoch': (string);
}
