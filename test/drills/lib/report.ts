// One row of the drills' summary table. A drill measures what it did and hands the figures to
// recordDrill(); the summary reporter prints every row when the run ends, failed drills included,
// so a red run still shows how far each drill got.
import { readFileSync } from 'node:fs'
import type { TaskMeta } from 'vitest'

export interface DrillRow {
  /** Short name, as it should read in the table. */
  drill: string
  /** What was pushed through: lines, alerts, kills... (`unit` says which). */
  events: number
  unit: string
  lost: number
  duplicated: number
  /** Peak RSS of the process under test (MB), when the drill measures one. */
  peakRssMb?: number | undefined
  timeMs: number
  /** Anything else worth a glance: retries, dead letters, skipped lines. */
  notes?: string | undefined
}

declare module 'vitest' {
  interface TaskMeta {
    drill?: DrillRow
  }
}

export function recordDrill(task: { meta: TaskMeta }, row: DrillRow): void {
  task.meta.drill = row
  // The worker prints it too, so a drill run with another reporter still shows its figures.
  process.stdout.write(`[drill] ${JSON.stringify(row)}\n`)
}

/** Peak RSS (VmHWM) of a live process in MB, from /proc; undefined once it has exited. */
export function peakRssOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = /VmHWM:\s+(\d+) kB/.exec(status)
    return match?.[1] === undefined ? undefined : Math.round(Number(match[1]) / 1024)
  } catch {
    return undefined
  }
}
