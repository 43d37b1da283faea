// Where a command writes: the terminal, or a test's buffers.
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

export const terminalIo: CliIo = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

/** A failure the user can act on: printed without a stack, exit code 1 (or the given one). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
