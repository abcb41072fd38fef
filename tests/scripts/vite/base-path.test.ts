/** The build's public path (scripts/vite/base-path.ts): every spelling of a sub-path gives `/name/`; URLs are refused. */
import { expect, test } from 'vitest';
import { basePath } from '../../../scripts/vite/base-path.ts';

test('unset or / is the host root', () => {
  expect(basePath(undefined)).toBe('/');
  expect(basePath('')).toBe('/');
  expect(basePath('/')).toBe('/');
});

test('a sub-path gets one leading and one trailing slash', () => {
  for (const value of ['retrieval-playground', '/retrieval-playground', '/retrieval-playground/', '/retrieval-playground//', ' /retrieval-playground/ ']) {
    expect(basePath(value)).toBe('/retrieval-playground/');
  }
  expect(basePath('/a/b')).toBe('/a/b/');
});

test('a URL is refused with the variable named', () => {
  expect(() => basePath('https://user.github.io/retrieval-playground/')).toThrow(/BASE_PATH: .* must be a path/);
  expect(() => basePath('//user.github.io/retrieval-playground/')).toThrow(/must be a path/);
});
