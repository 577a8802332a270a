import { describe, expect, it } from 'vitest'
import { SyslogFramer, type FramerOutput } from '../../../agent/intake/syslog/framing'

/** Every chunk pushed in turn, then finish(): the frames as text and the cuts. */
function frame(chunks: string[], maxFrameBytes = 1024): { frames: string[]; cut: number; framer: SyslogFramer } {
  const framer = new SyslogFramer(maxFrameBytes)
  const outputs: FramerOutput[] = chunks.map((chunk) => framer.push(Buffer.from(chunk)))
  outputs.push(framer.finish())
  return {
    frames: outputs.flatMap((out) => out.frames.map((bytes) => bytes.toString())),
    cut: outputs.reduce((sum, out) => sum + out.cut, 0),
    framer,
  }
}

/** Each split of `text` into two chunks gives the same frames as the whole. */
function everySplit(text: string, maxFrameBytes = 1024): Array<{ frames: string[]; cut: number }> {
  return Array.from({ length: text.length + 1 }, (_, at) => {
    const { frames, cut } = frame([text.slice(0, at), text.slice(at)], maxFrameBytes)
    return { frames, cut }
  })
}

describe('SyslogFramer', () => {
  it('rule 1: a first digit is octet counting, anything else newline framing', () => {
    expect(frame(['5 hello']).framer.mode).toBe('octet-counting')
    expect(frame(['<13>hello\n']).framer.mode).toBe('newline')
    expect(frame(['hello\n']).framer.mode).toBe('newline')
  })

  it('rule 2: newline framing ends frames at LF and skips empty ones, across any split', () => {
    const text = '<13>one\r\n\n<13>two\n\r\n<13>three\n'
    for (const result of everySplit(text)) {
      expect(result).toEqual({ frames: ['<13>one\r', '<13>two', '<13>three'], cut: 0 })
    }
  })

  it('rule 3: octet counting takes MSG-LEN bytes (newlines inside kept), across any split', () => {
    const text = '9 <13>a\nb c10 <13>second'
    for (const result of everySplit(text)) {
      expect(result).toEqual({ frames: ['<13>a\nb c', '<13>second'], cut: 0 })
    }
  })

  it('rule 3: a length that is not 1-9 digits and a space breaks the stream', () => {
    expect(frame(['5 hello', 'x5 world']).frames).toEqual(['hello'])
    expect(frame(['5 hello', 'x5 world']).framer.mode).toBe('broken')
    expect(frame(['1234567890 x']).framer.mode).toBe('broken')
    expect(frame(['5 hello05 world']).framer.mode).toBe('broken')
  })

  it('rule 4: a frame over the bound is cut and counted, the rest skipped, in both framings', () => {
    const long = 'x'.repeat(50)
    for (const result of everySplit(`<13>${long}\n<13>ok\n`, 16)) {
      expect(result).toEqual({ frames: [`<13>${long}`.slice(0, 16), '<13>ok'], cut: 1 })
    }
    for (const result of everySplit(`54 <13>${long}6 <13>ok`, 16)) {
      expect(result).toEqual({ frames: [`<13>${long}`.slice(0, 16), '<13>ok'], cut: 1 })
    }
  })

  it('rule 4: a connection holds at most the bound of an unfinished line', () => {
    const framer = new SyslogFramer(16)
    const cutAt = framer.push(Buffer.from('y'.repeat(40)))
    expect(cutAt.cut).toBe(1)
    for (let i = 0; i < 100; i++) expect(framer.push(Buffer.from('z'.repeat(1000))).frames).toEqual([])
    expect(framer.push(Buffer.from('\n<13>next\n')).frames.map(String)).toEqual(['<13>next'])
  })

  it('rule 5: a last line without LF is a frame; an octet-counted frame cut by the close is counted', () => {
    expect(frame(['<13>one\n<13>last']).frames).toEqual(['<13>one', '<13>last'])
    expect(frame(['10 <13>sh'])).toMatchObject({ frames: [], cut: 1 })
  })
})
