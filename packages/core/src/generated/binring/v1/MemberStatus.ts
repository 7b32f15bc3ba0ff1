// Original file: packages/core/proto/binring/v1/storage.proto

export const MemberStatus = {
  MEMBER_STATUS_UNSPECIFIED: 'MEMBER_STATUS_UNSPECIFIED',
  /**
   * on the ring
   */
  MEMBER_STATUS_MEMBER: 'MEMBER_STATUS_MEMBER',
  /**
   * being decommissioned: out of placement once its bins are copied elsewhere
   */
  MEMBER_STATUS_LEAVING: 'MEMBER_STATUS_LEAVING',
  /**
   * off the ring
   */
  MEMBER_STATUS_REMOVED: 'MEMBER_STATUS_REMOVED',
} as const;

export type MemberStatus =
  | 'MEMBER_STATUS_UNSPECIFIED'
  | 0
  /**
   * on the ring
   */
  | 'MEMBER_STATUS_MEMBER'
  | 1
  /**
   * being decommissioned: out of placement once its bins are copied elsewhere
   */
  | 'MEMBER_STATUS_LEAVING'
  | 2
  /**
   * off the ring
   */
  | 'MEMBER_STATUS_REMOVED'
  | 3

export type MemberStatus__Output = typeof MemberStatus[keyof typeof MemberStatus]
