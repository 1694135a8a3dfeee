/** Error codes the engine raises; the API maps them 1:1 to `extensions.code`. */
export type EngineErrorCode =
  | 'ILLEGAL_MOVE' // the command is not allowed now (card not in hand, option not offered)
  | 'WRONG_PHASE' // the game does not wait for this kind of command (or not from this seat)
  | 'BAD_USER_INPUT' // malformed command or options
  | 'NOT_AVAILABLE'; // an option the data does not support yet (e.g. stormy loot tiles)

export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export function fail(code: EngineErrorCode, message: string): never {
  throw new EngineError(code, message);
}
