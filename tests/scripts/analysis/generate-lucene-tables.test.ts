/**
 * scripts/analysis/GenerateLuceneTables.java still reproduces the committed tables
 * (src/lib/analysis/tables/standard-tokenizer-dfa.ts and java-character.ts) byte for byte, where a JDK and
 * Debian's Lucene (`apt-get install default-jdk-headless liblucene8-java`) are installed. Without them the
 * test prints a notice and is skipped: the tables are checked against Lucene's own tokens by
 * tests/lib/analysis in any case; this check guards the generator, not the tables.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../shared-dir.ts';

const LUCENE_JAR = process.env.LUCENE_CORE_JAR ?? '/usr/share/java/lucene-core-8.7.0.jar';
const TABLES = join(repoRoot, 'src', 'lib', 'analysis', 'tables');

function hasCommand(command: string): boolean {
  try {
    execFileSync(command, ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const missing = [
  ...(hasCommand('javac') && hasCommand('java') ? [] : ['a JDK (javac, java)']),
  ...(existsSync(LUCENE_JAR) ? [] : [`Lucene (${LUCENE_JAR})`]),
];
if (missing.length > 0) {
  console.warn(
    `NOTICE: GenerateLuceneTables.java not checked: ${missing.join(' and ')} not installed ` +
      '(Debian: apt-get install default-jdk-headless liblucene8-java).',
  );
}

describe.skipIf(missing.length > 0)('GenerateLuceneTables.java reproduces the committed tables', () => {
  const work = mkdtempSync(join(tmpdir(), 'lucene-tables-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('compiles against Lucene and writes standard-tokenizer-dfa.ts and java-character.ts identical to the committed ones', () => {
    const classes = join(work, 'classes');
    const out = join(work, 'out');
    execFileSync('mkdir', ['-p', classes, out]);
    execFileSync('javac', ['-cp', LUCENE_JAR, '-d', classes, join(repoRoot, 'scripts', 'analysis', 'GenerateLuceneTables.java')], { stdio: 'pipe' });
    execFileSync('java', ['-cp', `${LUCENE_JAR}:${classes}`, 'GenerateLuceneTables', out], { stdio: 'pipe', timeout: 300_000 });
    for (const file of ['standard-tokenizer-dfa.ts', 'java-character.ts']) {
      const generated = readFileSync(join(out, file), 'utf8');
      const committed = readFileSync(join(TABLES, file), 'utf8');
      expect(generated.length, file).toBeGreaterThan(1000);
      expect(generated === committed, `${file} differs from the committed table: run the generator (see its header) and commit the result`).toBe(true);
    }
  }, 300_000);
});
