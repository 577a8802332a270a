// The one error base: a name, a code and a cause, and an `instanceof` that holds for an error made
// by another copy of the package (its own classes) while telling one module's errors from another's.
import { describe, expect, it, vi } from 'vitest'
import { CodedError } from '../../agent/coded-error'
import { MessagingApiError, MessagingErrorCodes, MessagingValidationError } from '../../agent/messaging/errors'
import { OutboxError, OutboxErrorCodes } from '../../agent/outbox/errors'
import { TailError, TailErrorCodes } from '../../agent/tail/errors'
import type * as TailErrors from '../../agent/tail/errors'

describe('CodedError', () => {
  it('carries the name, the code, the message, the cause and the extra fields of its module', () => {
    const cause = new Error('EACCES')
    const error = new TailError(TailErrorCodes.CHECKPOINT_READ, 'cannot read', { path: '/x', cause })
    expect(error.name).toBe('TailError')
    expect(error.code).toBe('LOGX_TAIL_ERR_CHECKPOINT_READ')
    expect(error.message).toBe('cannot read')
    expect(error.cause).toBe(cause)
    expect(error.path).toBe('/x')
    expect(error).toBeInstanceOf(Error)
    expect(String(error)).toBe('TailError: cannot read')
  })

  it('has no cause property when none is given', () => {
    expect('cause' in new OutboxError(OutboxErrorCodes.CLOSED, 'closed')).toBe(false)
  })

  it("is an instance of its own module's class and of CodedError, not of another module's", () => {
    const error = new TailError(TailErrorCodes.CLOSED, 'closed')
    expect(error).toBeInstanceOf(TailError)
    expect(error).toBeInstanceOf(CodedError)
    expect(error).not.toBeInstanceOf(OutboxError)
    expect(new Error('plain')).not.toBeInstanceOf(CodedError)
    expect({ code: TailErrorCodes.CLOSED }).not.toBeInstanceOf(TailError)
  })

  it('holds instanceof across two copies of the module', async () => {
    vi.resetModules()
    // A second evaluation of the module: classes of their own, as another copy of the package has.
    const copy = (await vi.importActual('../../agent/tail/errors')) as typeof TailErrors
    expect(copy.TailError).not.toBe(TailError)
    const fromCopy = new copy.TailError(copy.TailErrorCodes.FILE_READ, 'gone')
    expect(fromCopy).toBeInstanceOf(TailError)
    expect(fromCopy).toBeInstanceOf(CodedError)
    expect(new TailError(TailErrorCodes.FILE_READ, 'gone')).toBeInstanceOf(copy.TailError)
    expect(fromCopy).not.toBeInstanceOf(OutboxError)
  })

  it('marks every class of a hierarchy, and a subclass still matches on its codes', () => {
    const error = new MessagingValidationError('send_sms', [{ field: 'numbers', message: 'is empty' }])
    expect(error).toBeInstanceOf(MessagingValidationError)
    expect(error).toBeInstanceOf(MessagingApiError)
    expect(error).toBeInstanceOf(CodedError)
    expect(error.name).toBe('MessagingValidationError')
    const timeout = new MessagingApiError(MessagingErrorCodes.TIMEOUT, 'slow')
    expect(timeout).toBeInstanceOf(MessagingApiError)
    expect(timeout).not.toBeInstanceOf(MessagingValidationError)
  })
})
