// Original file: packages/core/proto/binring/v1/storage.proto

import type { Entry as _binring_v1_Entry, Entry__Output as _binring_v1_Entry__Output } from '../../binring/v1/Entry.js';

export interface EntryBatch {
  'entries'?: (_binring_v1_Entry)[];
}

export interface EntryBatch__Output {
  'entries': (_binring_v1_Entry__Output)[];
}
