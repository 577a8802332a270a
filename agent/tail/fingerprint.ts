// A file is known by device+inode (stable across renames while it lives) plus a checksum of its
// first bytes (which tells a reused inode or a truncated-and-rewritten file from the one we read,
// and recognises a copy made by copy-and-truncate rotation, whose inode is new but whose head is the same).

import { createHash } from 'node:crypto'
import type { BigIntStats } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'

/** How many leading bytes the checksum covers once the file is that long. */
export const HEAD_BYTES = 256

export function fileKey(stats: Pick<BigIntStats, 'dev' | 'ino'>): string {
  return `${stats.dev}:${stats.ino}`
}

/** The first min(size, HEAD_BYTES) bytes of the file. */
export async function readHead(handle: FileHandle, size: number): Promise<Buffer> {
  const want = Math.min(size, HEAD_BYTES)
  if (want <= 0) return Buffer.alloc(0)
  const buffer = Buffer.alloc(want)
  const { bytesRead } = await handle.read(buffer, 0, want, 0)
  return buffer.subarray(0, bytesRead)
}

/** Checksum stored in checkpoints, so that log content never lands in the state directory. */
export function hashHead(head: Buffer): string {
  return createHash('sha256').update(head).digest('hex').slice(0, 32)
}

/** The file whose head we remember (`known`) still starts with those bytes (`current` may be longer). */
export function headContinues(known: Buffer, current: Buffer): boolean {
  return current.length >= known.length && current.subarray(0, known.length).equals(known)
}

/** Both heads are complete and equal: the two files began with the same HEAD_BYTES bytes. */
export function sameFullHead(a: Buffer, b: Buffer): boolean {
  return a.length === HEAD_BYTES && b.length === HEAD_BYTES && a.equals(b)
}
