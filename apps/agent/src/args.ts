// Reading the agent's command lines: node:util's parseArgs, with each of its refusals turned into one line a
// person can act on, `--help`/`-h` on every command, and the checks of values the commands share (numbers,
// URLs, data types). Nothing here prints or exits: a mistake is a UsageError, which the program reports.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { IOT_DATA_TYPES, isIotDataType, type IotDataType } from './readings.js';

/** A command line the agent cannot take: reported in one line with the command's usage, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage goes with the message; none for the agent's own. */
    readonly command?: string,
  ) {
    super(message);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;
/** What parseArgs reads for `options`. */
export type ParsedOptions<T extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: false }>
>['values'];

/** `--help` or `-h` before any `--`: help is answered whatever else the line holds. */
export function asksForHelp(args: readonly string[]) {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/** A value as it is quoted back in a message: in quotes, and cut when long. */
export const quote = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);

/**
 * The options of `command` in `args` (no positional arguments). Every parseArgs refusal becomes a UsageError
 * naming the option: unknown, missing its value, given a value it does not take, or an extra argument.
 */
export function parseOptions<T extends Options>(
  command: string,
  args: string[],
  options: T,
): ParsedOptions<T> {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(parseArgsMessage(error, args, Object.keys(options)), command);
  }
}

function parseArgsMessage(error: unknown, args: readonly string[], known: readonly string[]): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw error;
  const text = String(message);
  // Node names the option or argument in single quotes: '--rate <value>', '-x', 'extra'.
  const quoted = /'([^']*)'/.exec(text)?.[1] ?? '';
  const option = quoted.replace(/ <value>$/, '');
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      // `-device` reads as the short options -d -e -v…: say which long option was meant.
      const meant = args.find((arg) => /^-[^-]./.test(arg) && known.includes(arg.slice(1).split('=')[0]!));
      if (meant) return `unknown option ${meant} (did you mean -${meant}?)`;
      const lower = known.find((name) => `--${name}` === option.toLowerCase());
      return `unknown option ${option}${lower ? ` (did you mean --${lower}?)` : ''}`;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${quote(quoted)}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (text.includes('does not take an argument')) return `${option} takes no value`;
      if (text.includes('ambiguous')) {
        return `${option} needs a value (one that starts with "-" is written ${option}=<value>)`;
      }
      return `${option} needs a value`;
    default:
      return text.split('\n')[0]!;
  }
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** `--name <value>` as a number above 0 and at most `max`; `fallback` when not given. */
export function positiveNumber(name: string, value: string | undefined, fallback: number, max = Infinity) {
  if (value === undefined) return fallback;
  const number = NUMBER.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(number > 0 && number <= max)) {
    throw new UsageError(
      `--${name} must be a positive number${max < Infinity ? ` up to ${max}` : ''}, not ${quote(value)}`,
    );
  }
  return number;
}

/** `--name <value>` as a whole number from `min` (to `max`). */
export function wholeNumber(name: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  const number = NUMBER.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(Number.isInteger(number) && number >= min && number <= max)) {
    const range = max < Number.MAX_SAFE_INTEGER ? `from ${min} to ${max}` : `of at least ${min}`;
    throw new UsageError(`--${name} must be a whole number ${range}, not ${quote(value)}`);
  }
  return number;
}

/** `--name <value>` as a share between 0 and 1. */
export function share(name: string, value: string) {
  const number = NUMBER.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(number >= 0 && number <= 1)) {
    throw new UsageError(`--${name} must be a share between 0 and 1, not ${quote(value)}`);
  }
  return number;
}

/** `--name <value>` as any whole number (a seed). */
export function integer(name: string, value: string) {
  const number = NUMBER.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number))
    throw new UsageError(`--${name} must be a whole number, not ${quote(value)}`);
  return number;
}

function url(value: string) {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** The server's address: http or https, with a host. */
export function serverUrl(name: string, value: string) {
  const parsed = url(value);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) {
    throw new UsageError(
      `--${name} must be an http(s) URL such as https://careplane.example, not ${quote(value)}`,
    );
  }
  return parsed;
}

const BROKER_PROTOCOLS = ['mqtt:', 'mqtts:', 'tcp:', 'ssl:', 'ws:', 'wss:'];

/** An MQTT broker's address: mqtt(s), tcp, ssl or ws(s), with a host. */
export function brokerUrl(name: string, value: string) {
  const parsed = url(value);
  if (!parsed || !BROKER_PROTOCOLS.includes(parsed.protocol) || !parsed.hostname) {
    throw new UsageError(
      `--${name} must be an MQTT URL such as mqtt://broker:1883 (mqtt, mqtts, tcp, ssl, ws or wss), not ${quote(value)}`,
    );
  }
  return parsed;
}

/** `--types heart_rate,battery`: known data types, each once. */
export function dataTypes(name: string, value: string): IotDataType[] {
  const names = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const unknown = names.filter((item) => !isIotDataType(item));
  if (unknown.length || !names.length) {
    throw new UsageError(
      (unknown.length
        ? `--${name}: unknown data type ${unknown.map(quote).join(', ')}`
        : `--${name} needs at least one data type`) + ` (of ${IOT_DATA_TYPES.join(', ')})`,
    );
  }
  return [...new Set(names)] as IotDataType[];
}
