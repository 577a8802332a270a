// The one digest the agent takes (a checkpoint's file head, the console's token, the sandbox's seeds),
// by node:crypto. Checkpoints saved by earlier versions hold these same bytes, so they still match.
import { createHash } from 'node:crypto'

export function sha256(data: Uint8Array | string): Buffer {
  return createHash('sha256').update(data).digest()
}
