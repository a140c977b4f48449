/**
 * The base of the errors that carry a code saying what went wrong: `problem` for a damaged table
 * file (KbnkFileError, TablebaseFileError, SyzygyFileError), `reason` for a position the Syzygy
 * tables cannot answer (SyzygyError). The message and the code pass through errorText, so a
 * constructor called with any value reports the error instead of throwing one of its own.
 * ProblemError is the common case: a `problem` code and a message (EpdError, KbnkFileError,
 * TablebaseFileError, PolyglotBookError), each subclass naming itself.
 */
import { errorText } from './position.js';

export class CodedError<C extends string> extends Error {
  /** Sets the code as the subclass's `field` (read-only, enumerable). */
  protected constructor(field: 'problem' | 'reason', code: C, message: string) {
    super(errorText(message));
    Object.defineProperty(this, field, { value: errorText(code) as C, enumerable: true });
  }
}

/** A CodedError built from `(problem, message)`: its subclasses set only their `name`. */
export abstract class ProblemError<P extends string> extends CodedError<P> {
  declare readonly problem: P;
  constructor(problem: P, message: string) {
    super('problem', problem, message);
  }
}
