// The one error base of the agent: a `name`, a stable `code` from the module's union, a message and
// an optional cause. Each module's errors.ts lists its codes and declares a small subclass (with any
// extra fields) that names its own brand.
//
// Why a brand and not the prototype: two copies of the package in one process (an app's and a
// transport target's, or dist/ beside the bundle) each have their own classes, so a plain
// `instanceof` fails across them. The brand is a registered symbol (`Symbol.for`), the same in every
// copy; `instanceof` checks it on the value. Across a worker-thread boundary (a structured clone
// keeps no symbols) match on `code`.

const codedBrand = Symbol.for('logx.coded-error')

/** What a subclass's constructor function carries: its brand, inherited by its own subclasses. */
interface BrandedClass {
  readonly brand: symbol
}

export abstract class CodedError<Code extends string = string> extends Error {
  /** The mark of instances of this class; each module's subclass declares its own. */
  static readonly brand: symbol = codedBrand

  readonly code: Code

  constructor(name: string, code: Code, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause })
    this.name = name
    this.code = code
    markBrands(this, new.target)
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, this.brand)
  }
}

/** True when `value` carries `brand`: made by a class of that brand in any copy of the package. */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
}

// Every class from the one constructed up to CodedError marks the instance, so `instanceof` holds
// for each of them (a MessagingValidationError is a MessagingApiError and a CodedError).
function markBrands(error: CodedError, constructed: unknown): void {
  for (let owner = constructed; owner !== Error && typeof owner === 'function';) {
    const brand = (owner as Partial<BrandedClass>).brand
    if (brand !== undefined && !Object.prototype.hasOwnProperty.call(error, brand)) {
      Object.defineProperty(error, brand, { value: true })
    }
    owner = Object.getPrototypeOf(owner) as unknown
  }
}

/** Options every coded error takes. */
export interface CodedErrorOptions {
  cause?: unknown
}

/** Options of an error about a path: the option, checkpoint or file it is about. */
export interface PathErrorOptions extends CodedErrorOptions {
  path?: string
}

/**
 * The base of one module's error class: `name`, the brand (`Symbol.for(brandKey)`) and a
 * `(code, message, { cause })` constructor. `class ClusterError extends codedErrorClass<...>(...) {}`
 */
export function codedErrorClass<Code extends string>(name: string, brandKey: string) {
  return class extends CodedError<Code> {
    static override readonly brand: symbol = Symbol.for(brandKey)

    constructor(code: Code, message: string, options: CodedErrorOptions = {}) {
      super(name, code, message, options.cause)
    }
  }
}

/** As codedErrorClass, for errors that name a path (`path`, undefined when they name none). */
export function pathErrorClass<Code extends string>(name: string, brandKey: string) {
  return class extends CodedError<Code> {
    static override readonly brand: symbol = Symbol.for(brandKey)
    /** The option path, checkpoint file or log file the error is about. */
    readonly path: string | undefined

    constructor(code: Code, message: string, options: PathErrorOptions = {}) {
      super(name, code, message, options.cause)
      this.path = options.path
    }
  }
}
