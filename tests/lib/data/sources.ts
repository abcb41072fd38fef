/** Byte sources and collectors shared by the data-layer tests. */
import { expect } from 'vitest';
import { ParseError, type ParseErrorKind } from '../../../src/lib/data/errors.ts';

export const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Replays `bytes` cut at the given sizes (cycled; the rest goes in one piece when sizes is empty). */
export async function* chunked(bytes: Uint8Array, sizes: readonly number[] = []): AsyncGenerator<Uint8Array> {
  if (sizes.length === 0) {
    yield bytes;
    return;
  }
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length]!);
    yield bytes.slice(at, at + size);
    at += size;
  }
}

/** `bytes` as a web ReadableStream, the browser's shape of a file or fetch body. */
export function webStream(bytes: Uint8Array, chunkSize = 7): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else {
        controller.enqueue(bytes.slice(at, at + chunkSize));
        at += chunkSize;
      }
    },
  });
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Runs `work` and returns the ParseError it must throw. */
export async function parseErrorOf(work: () => Promise<unknown>): Promise<ParseError> {
  try {
    await work();
  } catch (error) {
    expect(error).toBeInstanceOf(ParseError);
    return error as ParseError;
  }
  throw new Error('expected a ParseError, but nothing was thrown');
}

export async function expectParseError(
  work: () => Promise<unknown>,
  expected: { file?: string; line: number; kind: ParseErrorKind; reason?: string | RegExp },
): Promise<ParseError> {
  const error = await parseErrorOf(work);
  const { reason, ...where } = expected;
  expect({ file: error.file, line: error.line, kind: error.kind }).toMatchObject(where);
  if (typeof reason === 'string') expect(error.reason).toBe(reason);
  else if (reason) expect(error.reason).toMatch(reason);
  return error;
}
