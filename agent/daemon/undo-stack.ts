// Start-up as ordered steps, each leaving its undo behind it: when a later step fails, what the
// earlier ones made is taken apart again, so a failed start leaves no lock, port or child behind.
//
// Rules:
// 1. An undo is pushed by a step once it has made what the undo takes apart.
// 2. undoAll() runs the undos last pushed first: what was made later, on top of the rest, goes first.
// 3. An undo that throws or rejects does not stop the others: each still runs, in order.
// 4. undoAll() runs each undo at most once; a second call finds nothing left to do.

export type Undo = () => unknown

export interface UndoStack {
  push(undo: Undo): void
  undoAll(): Promise<void>
}

export function createUndoStack(): UndoStack {
  const undos: Undo[] = []
  return {
    push(undo) {
      undos.push(undo)
    },
    async undoAll() {
      for (let undo = undos.pop(); undo !== undefined; undo = undos.pop()) {
        try {
          await undo()
        } catch {
          // The start failed for another reason, which is the one said; the rest is undone regardless.
        }
      }
    },
  }
}
