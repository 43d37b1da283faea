// Where a command writes, and whom it may ask: the terminal, or a test's buffers and scripted answers.
import { createInterface } from 'node:readline';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /**
   * Asks the person at the terminal; resolves to what they typed, or null when the input ends (Ctrl-D, Ctrl-C).
   * Absent when standard input is not a terminal: a command then never waits for a person.
   */
  ask?: (question: string) => Promise<string | null>;
}

function askAtTerminal(question: string): Promise<string | null> {
  return new Promise((resolve) => {
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    let answered = false;
    // Without a listener readline swallows Ctrl-C; here it cancels the question.
    prompt.on('SIGINT', () => prompt.close());
    prompt.on('close', () => {
      if (answered) return;
      process.stdout.write('\n');
      resolve(null);
    });
    prompt.question(question, (answer) => {
      answered = true;
      prompt.close();
      resolve(answer);
    });
  });
}

export const terminalIo: CliIo = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  ...(process.stdin.isTTY ? { ask: askAtTerminal } : {}),
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
