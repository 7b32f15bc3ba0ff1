// Original file: packages/core/proto/binring/v1/storage.proto

export const EntryKind = {
  ENTRY_KIND_UNSPECIFIED: 'ENTRY_KIND_UNSPECIFIED',
  /**
   * value of a string key; the greatest stamp wins; "" deletes
   */
  ENTRY_KIND_SET: 'ENTRY_KIND_SET',
  /**
   * one element appended to a list
   */
  ENTRY_KIND_APPEND: 'ENTRY_KIND_APPEND',
  /**
   * removes every append of value with a smaller stamp
   */
  ENTRY_KIND_REMOVE: 'ENTRY_KIND_REMOVE',
} as const;

export type EntryKind =
  | 'ENTRY_KIND_UNSPECIFIED'
  | 0
  /**
   * value of a string key; the greatest stamp wins; "" deletes
   */
  | 'ENTRY_KIND_SET'
  | 1
  /**
   * one element appended to a list
   */
  | 'ENTRY_KIND_APPEND'
  | 2
  /**
   * removes every append of value with a smaller stamp
   */
  | 'ENTRY_KIND_REMOVE'
  | 3

export type EntryKind__Output = typeof EntryKind[keyof typeof EntryKind]
