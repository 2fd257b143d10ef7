import { InvalidArgumentError } from 'commander';

/**
 * Argument and option parsers: each refuses a bad value in the words of the command line
 * (`--limit must be 1 to 100`), before anything is sent.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const uuid = (name: string) => (raw: string) => {
  if (!UUID.test(raw)) throw new InvalidArgumentError(`${name} must be an id such as 3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11`);
  return raw.toLowerCase();
};

/** A whole number from `min` to `max`; a sign, a fraction or a word is named as such. */
export const whole = (name: string, min = 0, max = Number.MAX_SAFE_INTEGER) => (raw: string) => {
  if (!/^[+-]?\d+$/.test(raw.trim())) throw new InvalidArgumentError(`${name} must be a whole number${/^[+-]?\d*\.\d+$/.test(raw) ? ' (amounts are in cents)' : ''}`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n > max) throw new InvalidArgumentError(min === 1 && max === 100 ? `${name} must be 1 to 100` : `${name} is too large (at most ${max})`);
  if (n < min) throw new InvalidArgumentError(min === 1 ? `${name} must be greater than 0` : `${name} must be at least ${min}`);
  return n;
};

export const bool = (name: string) => (raw: string) => {
  if (raw !== 'true' && raw !== 'false') throw new InvalidArgumentError(`${name} must be true or false`);
  return raw === 'true';
};

export const oneOf = (name: string, values: readonly string[]) => (raw: string) => {
  const value = raw.toLowerCase();
  if (!values.includes(value)) throw new InvalidArgumentError(`${name} must be one of ${values.join(', ')}`);
  return value;
};

export const collect = (value: string, previous: string[] = []) => [...previous, value];
