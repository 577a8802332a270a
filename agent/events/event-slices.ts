// How a source of events (a multi-line rule, a container log) hands a big batch to the pipeline: as
// a source of single lines does (agent/daemon/batch-slices.ts), a slice at a time, the event loop
// turning between slices, since a backlog handled in one turn held /health, the console and every
// timer for as long as it took. Events are assembled across lines and kept open across batches
// (event-stream.ts): a slice goes on from the line and the stream its slice before left.
//
// Rules:
// 1. A plain file's batch: a slice holds `sliceLines` candidates (the lines left by the pre-filter;
//    only a candidate opens an event, so a slice emits at most sliceLines + 1 events), and ends just
//    before the next candidate's line. A batch of at most sliceLines candidates is one slice.
// 2. A container log's batch: a slice holds `sliceLines` raw lines (each one is decoded, and each
//    logical line may be an event of its own).
// 3. A slice reads on from the line after the last one its slice before read, with the stream as
//    that slice left it (the rule's mode, the open event, the parts of a line the runtime split):
//    the events emitted are those of the batch read whole, in order, each once.
// 4. After a slice, the batch may be committed through the last line before what is held: every
//    line read when nothing is; else not past the open event's first line (nothing of the batch when
//    that event opened in an earlier one), nor past the first part of a line the runtime split. The
//    batch's last slice is committed by the same rule (the rule of a whole batch before slices).
//    So the checkpoint never passes the first line of an event not emitted: a restart reads it again.
// 5. While a batch is handed over in slices, the quiet timer never ends its stream (event-streams.ts
//    rule 4): ending it commits the stream's last batch whole, lines not read yet included.
// 6. Each slice is read at the time of its start: the time of its events, and the stream's last
//    read (the quiet timer counts from the last slice, not from the batch's first).

/** Rules 1 and 2: where the slice that starts at `from` (a candidate, or a raw line) ends, of `count`. */
export function eventSliceEnd(from: number, count: number, sliceLines: number): number {
  return Math.min(count, from + Math.max(1, sliceLines))
}

/**
 * Rule 4: how many of the batch's lines may be committed once `linesRead` are read; `openAt`, `heldAt`:
 * where the open event and the held parts of a split line begin in the batch, or -1 when nothing is.
 */
export function linesToCommit(linesRead: number, openAt: number, heldAt: number): number {
  let count = linesRead
  if (openAt >= 0 && openAt < count) count = openAt
  if (heldAt >= 0 && heldAt < count) count = heldAt
  return count
}
