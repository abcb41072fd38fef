import { expect } from 'vitest';
import { ParseError } from '../../../src/lib/data/errors.ts';

/** The ParseError a parse rejects with (failing the test if it resolves or throws anything else). */
export async function parseError(promise: Promise<unknown>): Promise<ParseError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ParseError);
  return error as ParseError;
}
