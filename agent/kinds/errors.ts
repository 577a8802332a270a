// Errors of the kinds kept in state_dir, with stable codes never reused.
import { codedErrorClass } from '../coded-error'

export const KindStoreErrorCodes = {
  /** The kinds file (`kinds.jsonl` in state_dir) cannot be read or written (a disk, a permission). */
  STATE: 'LOGX_KINDS_ERR_STATE',
} as const

export type KindStoreErrorCode = (typeof KindStoreErrorCodes)[keyof typeof KindStoreErrorCodes]

export class KindStoreError extends codedErrorClass<KindStoreErrorCode>('KindStoreError', 'logx.kinds.error') {}
