// One stage signature for the whole notification pipeline (Alertmanager's notify.Stage without
// the error: stages here are pure and cannot fail). A stage may drop, split, hold or add notices.
import type { Notice } from './notice'

export interface StageContext {
  now: number
}

export type Stage = (ctx: StageContext, notices: Notice[]) => Notice[]

/** Runs stages in order; the pipeline reads as one line where it is assembled. */
export function sequence(...stages: Stage[]): Stage {
  return (ctx, notices) => {
    let current = notices
    for (const stage of stages) current = stage(ctx, current)
    return current
  }
}
