// Calls made in one turn of the event loop, gathered into one: the claims of one engine step, the
// marks of the sends that ended together. Each caller still gets its own answer. A storm's notices
// then cost Redis and the client one script call per turn instead of one per notice.

/** `run` answers each input in order (an Error for one that failed alone) or rejects for all. */
export type BatchRun<I, O> = (inputs: I[]) => Promise<(O | Error)[]>

/** At most `max` inputs per call of `run`; more in one turn make several calls. */
export function batched<I, O>(run: BatchRun<I, O>, max = 100): (input: I) => Promise<O> {
  let queue: { input: I; resolve: (output: O) => void; reject: (err: unknown) => void }[] = []

  function flush(): void {
    const taken = queue
    queue = []
    for (let i = 0; i < taken.length; i += max) {
      const chunk = taken.slice(i, i + max)
      run(chunk.map((c) => c.input)).then(
        (outputs) => {
          chunk.forEach((c, j) => {
            const output = outputs[j]
            if (output instanceof Error) c.reject(output)
            else if (output === undefined) c.reject(new Error('no answer for this input'))
            else c.resolve(output)
          })
        },
        (err: unknown) => {
          for (const c of chunk) c.reject(err)
        },
      )
    }
  }

  return (input) =>
    new Promise<O>((resolve, reject) => {
      if (queue.length === 0) queueMicrotask(flush)
      queue.push({ input, resolve, reject })
    })
}
