/**
 * Temporary directories for tests, removed once their test file is done (tests/temp-dir-cleanup.ts, a setup
 * file of both vitest configs), so that a run leaves nothing behind in the system's temporary folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A new directory in the system's temporary folder, named `prefix` and six random characters. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes the directories `tempDir` has made (after each test file). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
