// Original file: packages/core/proto/binring/v1/storage.proto

import type { MemberStatus as _binring_v1_MemberStatus, MemberStatus__Output as _binring_v1_MemberStatus__Output } from '../../binring/v1/MemberStatus.js';
import type { MemberKind as _binring_v1_MemberKind, MemberKind__Output as _binring_v1_MemberKind__Output } from '../../binring/v1/MemberKind.js';
import type { Long } from '@grpc/proto-loader';

/**
 * One backend's or keeper's membership as the keepers recorded it. Each
 * change bumps the version; merging keeps each address's higher version (then
 * the larger `by`), so every holder converges on the same records.
 */
export interface MemberRecord {
  'address'?: (string);
  'zone'?: (string);
  'status'?: (_binring_v1_MemberStatus);
  'version'?: (number | string | Long);
  /**
   * the keeper that recorded this version
   */
  'by'?: (string);
  'kind'?: (_binring_v1_MemberKind);
  /**
   * keepers only: the low bits of every epoch and owner term the keeper
   * mints (0-15), so no two keepers on the ring mint the same number
   */
  'slot'?: (number);
}

/**
 * One backend's or keeper's membership as the keepers recorded it. Each
 * change bumps the version; merging keeps each address's higher version (then
 * the larger `by`), so every holder converges on the same records.
 */
export interface MemberRecord__Output {
  'address': (string);
  'zone': (string);
  'status': (_binring_v1_MemberStatus__Output);
  'version': (string);
  /**
   * the keeper that recorded this version
   */
  'by': (string);
  'kind': (_binring_v1_MemberKind__Output);
  /**
   * keepers only: the low bits of every epoch and owner term the keeper
   * mints (0-15), so no two keepers on the ring mint the same number
   */
  'slot': (number);
}
