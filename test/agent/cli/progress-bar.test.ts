import { describe, expect, it } from 'vitest'
import { createProgressBar } from '../../../agent/cli/progress-bar'

function stream(isTTY: boolean): { write(text: string): void; isTTY: boolean; columns: number; text: string } {
  return {
    isTTY,
    columns: 80,
    text: '',
    write(t: string) {
      this.text += t
    },
  }
}

describe('progress bar', () => {
  it('draws on a terminal for big files and ends the line', () => {
    const s = stream(true)
    const bar = createProgressBar(s, 'app.log', 8 * 1_048_576)
    bar.update(4 * 1_048_576)
    bar.done()
    expect(s.text).toContain('app.log [')
    expect(s.text).toContain('50% 4.0/8.0 MB')
    expect(s.text).toContain('100% 8.0/8.0 MB')
    expect(s.text.endsWith('\n')).toBe(true)
  })

  it('stays silent when stderr is not a terminal, or the file is small', () => {
    const pipe = stream(false)
    createProgressBar(pipe, 'app.log', 8 * 1_048_576).done()
    const small = stream(true)
    createProgressBar(small, 'app.log', 1000).done()
    expect(pipe.text + small.text).toBe('')
  })
})
