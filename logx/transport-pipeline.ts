// A pipeline of transport steps presented to thread-stream as one writable: lines go into a
// PassThrough at the head. The head only reports 'close' once the whole chain has finished, because
// thread-stream ends the worker on the destination's 'close' and the last step may still be writing.

import { PassThrough, pipeline, type Readable, type Writable } from 'node:stream'

export function createPipeline(steps: ReadonlyArray<NodeJS.ReadableStream | NodeJS.WritableStream>): PassThrough {
  let settle: (err: Error | null) => void = () => {}
  const finished = new Promise<Error | null>((resolve) => {
    settle = resolve
  })

  const head = new PassThrough({
    autoDestroy: true,
    destroy(err, callback) {
      // A promise, not an event: the chain may finish before or after the head is destroyed.
      void finished.then((chainErr) => callback(err ?? chainErr))
    },
  })

  const chain = [head, ...steps] as unknown as [Readable, ...Writable[]]
  pipeline(...(chain as [Readable, Writable]), (err: NodeJS.ErrnoException | null | undefined) => {
    // A premature close is how an ended chain reports a step that was destroyed on purpose.
    settle(err && err.code !== 'ERR_STREAM_PREMATURE_CLOSE' ? err : null)
  })
  return head
}
