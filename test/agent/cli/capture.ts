// A command's standard streams, captured: what a user would read, and the exit code.
import { runCli } from '../../../agent/cli/main'

export interface Outcome {
  code: number
  stdout: string
  stderr: string
}

export function capture(): { io: Parameters<typeof runCli>[1]; out: () => { stdout: string; stderr: string } } {
  let stdout = ''
  let stderr = ''
  const io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    signal: new AbortController().signal,
  }
  return { io, out: () => ({ stdout, stderr }) }
}

/** `logx-agent <argv>` through the CLI's entry, in this process. */
export async function cli(argv: string[]): Promise<Outcome> {
  const { io, out } = capture()
  const code = await runCli(argv, io)
  return { code, ...out() }
}
