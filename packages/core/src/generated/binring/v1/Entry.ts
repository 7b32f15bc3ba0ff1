// Original file: packages/core/proto/binring/v1/storage.proto

import type { EntryKind as _binring_v1_EntryKind, EntryKind__Output as _binring_v1_EntryKind__Output } from '../../binring/v1/EntryKind.js';
import type { Stamp as _binring_v1_Stamp, Stamp__Output as _binring_v1_Stamp__Output } from '../../binring/v1/Stamp.js';

export interface Entry {
  'bin'?: (string);
  'key'?: (string);
  'kind'?: (_binring_v1_EntryKind);
  'value'?: (string);
  'stamp'?: (_binring_v1_Stamp | null);
}

export interface Entry__Output {
  'bin': (string);
  'key': (string);
  'kind': (_binring_v1_EntryKind__Output);
  'value': (string);
  'stamp': (_binring_v1_Stamp__Output | null);
}
