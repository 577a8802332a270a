// The whole text or an error: writeSync may write less than asked.
import { writeSync } from 'node:fs'

/**
 * Writes `text` to `fd` completely. One writeSync call when the kernel takes it all (a regular
 * file's usual case), so the records of one call reach the file together or, after a SIGKILL, not at
 * all: the journal's replay skips a torn last line.
 */
export function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text)
  let done = 0
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done)
}
