// A followed file's identity: device+inode (stable across renames while the file lives) plus its
// first bytes, the head. The head tells a reused inode, or a file truncated and rewritten, from the
// file being read, and recognises the copy a copy-and-truncate rotation leaves behind (another
// inode, the same head). Not to be confused with an incident's fingerprint (alerts/fingerprint.ts).

import { readSync, type BigIntStats } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { sha256 } from '../sha256'

/** How many leading bytes the head holds once the file is that long. */
export const HEAD_BYTES = 256
/**
 * A copy is matched to the file it copies by that file's head; while the file is shorter than
 * HEAD_BYTES, by as many bytes as it has, but never fewer than this (a first log line is longer).
 */
export const MIN_COPY_MATCH_BYTES = 32

/** `dev:ino`: a batch's and a status's `fileId`. */
export function fileIdOf(stats: Pick<BigIntStats, 'dev' | 'ino'>): string {
  return `${stats.dev}:${stats.ino}`
}

let lastFollowId = 0

/**
 * A number for a file the tailer begins to follow, unique in the process. `dev:ino` is not enough
 * to tell files apart over time: ext4 gives a file created just after another is deleted the inode
 * that one had (logrotate's rename over `app.log.1`, then the new `app.log`).
 */
export function nextFollowId(): number {
  return ++lastFollowId
}

/** The first min(size, HEAD_BYTES) bytes of the file. */
export async function readHead(handle: FileHandle, size: number): Promise<Buffer> {
  const want = Math.min(size, HEAD_BYTES)
  if (want <= 0) return Buffer.alloc(0)
  const buffer = Buffer.alloc(want)
  const { bytesRead } = await handle.read(buffer, 0, want, 0)
  return buffer.subarray(0, bytesRead)
}

/** readHead on the calling thread (syncReads): a turn then needs no trip to the thread pool before its read. */
export function readHeadSync(handle: FileHandle, size: number): Buffer {
  const want = Math.min(size, HEAD_BYTES)
  if (want <= 0) return Buffer.alloc(0)
  const buffer = Buffer.alloc(want)
  return buffer.subarray(0, readSync(handle.fd, buffer, 0, want, 0))
}

/** Checksum stored in checkpoints, so that log content never lands in the state directory. */
export function hashHead(head: Buffer): string {
  return sha256(head).toString('hex').slice(0, 32)
}

/** The file whose head we remember (`known`) still starts with those bytes (`current` may be longer). */
export function headContinues(known: Buffer, current: Buffer): boolean {
  return current.length >= known.length && current.subarray(0, known.length).equals(known)
}

/** Both heads are complete and equal: the two files began with the same HEAD_BYTES bytes. */
export function sameFullHead(a: Buffer, b: Buffer): boolean {
  return a.length === HEAD_BYTES && b.length === HEAD_BYTES && a.equals(b)
}

/** `candidate` begins with all of `original`'s known head, and that is enough bytes to tell a copy by. */
export function startsLike(original: Buffer, candidate: Buffer): boolean {
  return original.length >= MIN_COPY_MATCH_BYTES && headContinues(original, candidate)
}
