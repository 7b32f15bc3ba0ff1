// Original file: packages/core/proto/binring/v1/storage.proto

export const MemberKind = {
  /**
   * a backend on the bin ring
   */
  MEMBER_KIND_BACKEND: 'MEMBER_KIND_BACKEND',
  /**
   * a keeper on the keeper ring
   */
  MEMBER_KIND_KEEPER: 'MEMBER_KIND_KEEPER',
} as const;

export type MemberKind =
  /**
   * a backend on the bin ring
   */
  | 'MEMBER_KIND_BACKEND'
  | 0
  /**
   * a keeper on the keeper ring
   */
  | 'MEMBER_KIND_KEEPER'
  | 1

export type MemberKind__Output = typeof MemberKind[keyof typeof MemberKind]
