// A request's body, whole, within `max_body` bytes: a larger Content-Length is refused before a
// byte is read, a body that grows past it is refused as it does, and a gzip body (Content-Encoding,
// as OTLP exporters and Vector send it) is inflated with the same bound on what it inflates to, so a
// small bomb cannot fill memory.
import type { IncomingMessage } from 'node:http'
import { createGunzip, createInflate } from 'node:zlib'
import type { Transform } from 'node:stream'
import { IntakeError, IntakeErrorCodes } from './errors'

function tooLarge(maxBytes: number): IntakeError {
  return new IntakeError(IntakeErrorCodes.TOO_LARGE, `the body is larger than max_body (${maxBytes} bytes)`, {
    status: 413,
  })
}

function decoderOf(encoding: string | undefined): Transform | undefined {
  const name = (encoding ?? 'identity').trim().toLowerCase()
  if (name === 'identity' || name === '') return undefined
  if (name === 'gzip' || name === 'x-gzip') return createGunzip()
  if (name === 'deflate') return createInflate()
  throw new IntakeError(IntakeErrorCodes.MEDIA_TYPE, `content-encoding ${name} is not taken (gzip, deflate)`, {
    status: 415,
  })
}

/** The body, inflated; rejects with an IntakeError (413, 415, 400 for a broken gzip stream). */
export async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes)
  const decoder = decoderOf(request.headers['content-encoding'])
  const stream = decoder === undefined ? request : request.pipe(decoder)
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > maxBytes) throw tooLarge(maxBytes)
      chunks.push(chunk)
    }
  } catch (err) {
    decoder?.destroy()
    if (err instanceof IntakeError) throw err
    if (decoder !== undefined)
      throw new IntakeError(IntakeErrorCodes.PAYLOAD, `the body is not valid ${request.headers['content-encoding']}`, {
        cause: err,
      })
    throw err
  }
  return Buffer.concat(chunks, size)
}
