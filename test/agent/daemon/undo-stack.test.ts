// One test per rule of agent/daemon/undo-stack.ts.
import { describe, expect, it } from 'vitest'
import { createUndoStack } from '../../../agent/daemon/undo-stack'

describe('undo stack', () => {
  it('1. undoes only what a step pushed: an empty stack does nothing', async () => {
    const undo = createUndoStack()
    await expect(undo.undoAll()).resolves.toBeUndefined()
  })

  it('2. runs the undos last pushed first', async () => {
    const order: string[] = []
    const undo = createUndoStack()
    undo.push(() => order.push('lock'))
    undo.push(async () => {
      await Promise.resolve()
      order.push('readers')
    })
    undo.push(() => order.push('endpoint'))
    await undo.undoAll()
    expect(order).toEqual(['endpoint', 'readers', 'lock'])
  })

  it('3. goes on past an undo that throws or rejects', async () => {
    const order: string[] = []
    const undo = createUndoStack()
    undo.push(() => order.push('lock'))
    undo.push(() => Promise.reject(new Error('port already closed')))
    undo.push(() => {
      throw new Error('child already gone')
    })
    undo.push(() => order.push('clock'))
    await undo.undoAll()
    expect(order).toEqual(['clock', 'lock'])
  })

  it('4. runs each undo at most once', async () => {
    let released = 0
    const undo = createUndoStack()
    undo.push(() => released++)
    await undo.undoAll()
    await undo.undoAll()
    expect(released).toBe(1)
  })
})
