// Calls made in one turn go to Redis together (agent/cluster/batch.ts), each with its own answer.
import { describe, expect, it } from 'vitest'
import { batched } from '../../../agent/cluster/batch'

describe('batched', () => {
  it('gathers the calls of one turn into one run, in order, and answers each caller', async () => {
    const runs: number[][] = []
    const double = batched<number, number>(async (inputs) => {
      runs.push(inputs)
      return inputs.map((n) => n * 2)
    })
    const first = await Promise.all([double(1), double(2), double(3)])
    const later = await double(4)
    expect(first).toEqual([2, 4, 6])
    expect(later).toBe(8)
    expect(runs).toEqual([[1, 2, 3], [4]])
  })

  it('splits a turn past `max` into several runs', async () => {
    const runs: number[][] = []
    const same = batched<number, number>(async (inputs) => {
      runs.push(inputs)
      return inputs
    }, 2)
    expect(await Promise.all([1, 2, 3, 4, 5].map(same))).toEqual([1, 2, 3, 4, 5])
    expect(runs).toEqual([[1, 2], [3, 4], [5]])
  })

  it('fails one caller on its own error, and every caller when the run fails', async () => {
    const picky = batched<number, number>(async (inputs) => inputs.map((n) => (n < 0 ? new Error(`negative ${n}`) : n)))
    const answers = await Promise.allSettled([picky(1), picky(-1), picky(2)])
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    const down = batched<number, number>(async () => {
      throw new Error('unreachable')
    })
    const all = await Promise.allSettled([down(1), down(2)])
    expect(all.map((a) => (a.status === 'rejected' ? (a.reason as Error).message : 'ok'))).toEqual([
      'unreachable',
      'unreachable',
    ])
  })
})
