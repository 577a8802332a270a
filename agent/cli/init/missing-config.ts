// What `run` and `validate` say when there is no config file at all: where they looked and how to
// make one, in one short paragraph (exit 2: the command line names a file that is not there).
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { DEFAULT_CONFIG } from '../default-config'

/**
 * The paragraph for a config file that does not exist, or undefined when it exists (or cannot be
 * looked at for another reason: the loader then says why). `another` is how this command takes another file.
 */
export async function missingConfigMessage(
  file: string,
  another: string,
  cwd: string = process.cwd(),
): Promise<string | undefined> {
  const where = resolve(cwd, file)
  try {
    await stat(where)
    return undefined
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return undefined
  }
  const init = file === DEFAULT_CONFIG ? 'npx logx-agent init' : `npx logx-agent init --config ${file}`
  return (
    `logx-agent: no config file at ${file} (looked for ${where}). Make one with \`${init}\`: it looks ` +
    'at this machine for logs (pm2, ./logs, containers, journald), asks who to page, and writes the file. ' +
    `Or ${another}.\n`
  )
}
