// Counts the turns of the event loop (a chain of setImmediate), so a test can see that work was spread
// over several turns rather than done in one.
export interface LoopTurns {
  /** Turns counted so far. */
  readonly count: number
  stop(): void
}

export function countLoopTurns(): LoopTurns {
  let count = 0
  let counting = true
  const tick = (): void => {
    count++
    if (counting) setImmediate(tick)
  }
  setImmediate(tick)
  return {
    get count() {
      return count
    },
    stop() {
      counting = false
    },
  }
}
