// Original file: packages/core/proto/binring/v1/storage.proto

export const Readiness = {
  READINESS_UNSPECIFIED: 'READINESS_UNSPECIFIED',
  /**
   * serves writes but no ready-only reads: it may miss entries
   */
  READINESS_NOT_READY: 'READINESS_NOT_READY',
  /**
   * holds every entry of the bins it is a replica of
   */
  READINESS_READY: 'READINESS_READY',
} as const;

export type Readiness =
  | 'READINESS_UNSPECIFIED'
  | 0
  /**
   * serves writes but no ready-only reads: it may miss entries
   */
  | 'READINESS_NOT_READY'
  | 1
  /**
   * holds every entry of the bins it is a replica of
   */
  | 'READINESS_READY'
  | 2

export type Readiness__Output = typeof Readiness[keyof typeof Readiness]
