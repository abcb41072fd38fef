// A setup file of both vitest configs: it runs before each test file, so each file's temporary
// directories (tests/temp-dir.ts) go when that file's tests are done.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.ts';

afterAll(removeTempDirs);
