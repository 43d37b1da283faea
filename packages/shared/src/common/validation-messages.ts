// What a person reads when a value is refused: a sentence that names the field ("Title is required.",
// "Quantity must be a whole number."), never the schema's own words ("Invalid input: expected string, received
// undefined"). Installed once as zod's error map for every contract, in the server and the console alike;
// a message a schema sets itself still wins.
import { z } from 'zod';

type Issue = z.core.$ZodRawIssue;

/** `firstName` → `First name`, `deliveryAddress.city` → `City`; an index names the list's item. */
export function fieldName(path: readonly PropertyKey[] | undefined): string {
  const keys = (path ?? []).filter((key) => typeof key === 'string' || typeof key === 'number');
  const last = keys.at(-1);
  if (last === undefined) return 'The value';
  if (typeof last === 'number') {
    const list = keys.at(-2);
    return typeof list === 'string'
      ? `Item ${last + 1} of ${humanize(list).toLowerCase()}`
      : `Item ${last + 1}`;
  }
  return humanize(last);
}

function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'The value';
}

const kinds: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
  null: 'empty (null)',
};

const formats: Record<string, string> = {
  email: 'an email address',
  uuid: 'an identifier (UUID)',
  guid: 'an identifier (UUID)',
  url: 'a web address',
  datetime: 'a date and time such as 2026-11-25T09:00:00Z',
  date: 'a date such as 2026-11-25',
  time: 'a time such as 09:00',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
};

const count = (n: number | bigint, one: string, many: string) => `${n} ${Number(n) === 1 ? one : many}`;

/** The sentence for an issue no schema named itself; undefined leaves zod's own. */
export function validationMessage(issue: Issue): string | undefined {
  const field = fieldName(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${field} is required.`;
      return `${field} must be ${kinds[issue.expected] ?? issue.expected}.`;
    case 'too_small': {
      const min = issue.minimum;
      if (issue.origin === 'string') {
        return Number(min) <= 1
          ? `${field} must not be empty.`
          : `${field} must be at least ${count(min, 'character', 'characters')}.`;
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return `${field} must have at least ${count(min, 'item', 'items')}.`;
      }
      return issue.inclusive === false
        ? `${field} must be more than ${min}.`
        : `${field} must be at least ${min}.`;
    }
    case 'too_big': {
      const max = issue.maximum;
      if (issue.origin === 'string')
        return `${field} must be at most ${count(max, 'character', 'characters')}.`;
      if (issue.origin === 'array' || issue.origin === 'set') {
        return `${field} must have at most ${count(max, 'item', 'items')}.`;
      }
      return issue.inclusive === false
        ? `${field} must be less than ${max}.`
        : `${field} must be at most ${max}.`;
    }
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'invalid_format':
      return formats[issue.format]
        ? `${field} must be ${formats[issue.format]}.`
        : `${field} is not in the expected form.`;
    case 'not_multiple_of':
      return `${field} must be a multiple of ${issue.divisor}.`;
    case 'unrecognized_keys':
      return `${issue.keys.length === 1 ? 'This field is' : 'These fields are'} not accepted: ${issue.keys.join(', ')}.`;
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
      return `${field} is not valid.`;
    case 'custom':
      return undefined;
  }
}

z.config({ customError: validationMessage });
