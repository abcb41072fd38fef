/**
 * Differential fuzzing of our analyzers against real Lucene (a development tool, not run in CI: it needs Java
 * and Debian's liblucene8-java). Generates random adversarial texts, runs them through Harness.java (Lucene's
 * StandardTokenizer, EnglishAnalyzer, StandardAnalyzer, SimpleAnalyzer, PolishAnalyzer, PorterStemFilter,
 * StempelStemmer, lower-casing) and
 * through src/lib/analysis, and prints every difference.
 *
 *   apt-get install default-jdk-headless liblucene8-java
 *   npx tsx scripts/analysis/lucene-diff.mts [seed] [cases]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { standardTokenize } from '../../src/lib/analysis/standard-tokenizer.ts';
import { analyzers } from '../../src/lib/analysis/analyzers.ts';
import { porterStem } from '../../src/lib/analysis/porter.ts';
import { javaLowerCase } from '../../src/lib/analysis/lowercase.ts';
import { loadStempelTables, stempelStem } from '../../src/lib/analysis/stempel.ts';

await loadStempelTables();
const seed0 = Number(process.argv[2] ?? 1); const N = Number(process.argv[3] ?? 3000);
let seed = seed0; const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000; };
const pick = <T,>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
const hex = (s: string) => { let o = ''; for (let i = 0; i < s.length; i++) o += s.charCodeAt(i).toString(16).padStart(4, '0'); return o; };
const pieces = ['a','B','z','Q','é','ß','0','7','9',' ',' ','  ','\n','\t','.',',',"'",'’','＇','-','_','@',':','/','#','*','&','"','+','%','$','s',"'s",'S',
 '\u0301','\u200d','\u200c','\ufe0f','\ufe0e','\u20e3','😀','👍','🏽','🇺','🇸','\u{E0067}','\u{E007F}','©','®','™','↔','中','文','ひ','ら','カ','タ','ー','한','국','ภ','า','ษ','ש','ל','״','׳','ع','Σ','ς','İ','ı','１','２','Ａ','\ud800','\udc00','𝐀','𐐀','𐐨','🥺','\u{1FAE0}','\u0870','\u00ad','\u2060','ǅ','ᾈ','Ⅻ','ⓐ','\u3030','\u303d','\u2018','\u00b7','\u0387','\u05f3',':','٫','﹐','．','＿','‿','℃','½','²','\u0e31','\u1100','\u11a8','ｶ','ﾞ','\u{16F00}','\u{1B000}','\uFFFC'];
const words = ["possessive's","don't","O'Neil's","e.g.","U.S.A.","3.5","1,000","1.000,5","http://example.com/a_b?x=1","user@example.com","C++","C#","#hashtag","$100","50%","1st","2nd","wi-fi","foo_bar","IL-6","TNF-α","p53","Ca2+","10^5","x-ray","students'","JOHN'S","it’s","Feed","eed","agreed","happy","sky","relational","generalization"];
function randomText(): string {
  const len = Math.floor(rnd() * (rnd() < 0.1 ? 600 : 40));
  let s = '';
  for (let i = 0; i < len; i++) {
    const r = rnd();
    if (r < 0.15) s += pick(words) + (rnd() < 0.5 ? ' ' : '');
    else if (r < 0.2) s += pick(pieces).repeat(1 + Math.floor(rnd() * 300));
    else s += pick(pieces);
  }
  return s;
}
function longText(): string {
  // Long runs placed at random offsets, to hit the 255-unit window at all alignments.
  let s = 'x '.repeat(Math.floor(rnd() * 200)).slice(0, Math.floor(rnd() * 300));
  const unit = pick(['a', '1', '😀', '中', 'カ', 'ภ', 'a\u0301', '1.', 'a_', '🇺🇸', '👍🏽\u200d', 'é', 'a\ud800', '\ud800']);
  const n = 100 + Math.floor(rnd() * 500);
  s += unit.repeat(n).slice(0, n + Math.floor(rnd() * 3));
  if (rnd() < 0.5) s += pick(pieces) + 'abc';
  if (rnd() < 0.3) s += '\ud800';
  return s;
}
const cases: [string, string][] = [];
for (let i = 0; i < N; i++) {
  const text = rnd() < 0.25 ? longText() : randomText();
  cases.push([pick(['tok', 'english', 'standard', 'simple']), text]);
}
// Porter on random lowercase strings, with y-heavy alphabets.
for (let i = 0; i < N; i++) {
  let w = ''; const n = 1 + Math.floor(rnd() * 12); const alpha = rnd() < 0.5 ? 'abcdefghijklmnopqrstuvwxyz' : 'aeiouyslbtnzgdce';
  for (let k = 0; k < n; k++) w += alpha[Math.floor(rnd() * alpha.length)];
  const suffix = pick(['', 'ed', 'ing', 'eed', 'ies', 'sses', 'ational', 'ization', 'iveness', 'biliti', 'logi', 'ement', 'ion', 'sion', 'tion', 'e', 'll', 'ly', 'y', 'ate', 'ful', 'ness', 'ous', 'ive', 'ize', 'ism', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ent', 'ou', 'iti', 'al', 'alli', 'entli', 'eli', 'ousli', 'bli', 'enci', 'anci', 'izer', 'ator', 'alism', 'fulness', 'ousness', 'aliti', 'iviti', 'icate', 'ative', 'alize', 'iciti', 'ical']);
  cases.push(['porter', w + suffix]);
}
// Polish text and Stempel on random words: Polish letters and endings, foreign words, digits, dots.
const polishWords = ['zażółć', 'gęślą', 'jaźń', 'katalogów', 'wypisuje', 'pocztą', 'e-mail', 'MS-DOS-em', 'sendmail.sendmail', 'console_codes', 'sha256sum', 'ext4', 'czego', 'się', 'nie', 'ZAŻÓŁĆ', 'user’s', 'http://www.gnu.org/', 'x86_64', 'iso9660', 'Łódź'];
const polishAlpha = 'aąbcćdeęfghijklłmnńoóprsśtuwyzźżqvx0123456789._\'';
const polishEndings = ['', 'ów', 'ami', 'ach', 'ego', 'emu', 'ych', 'ymi', 'ą', 'ę', 'ość', 'ości', 'anie', 'enie', 'ować', 'ował', 'owała', 'ują', 'ający', 'ski', 'ska', 'cki', 'nych', 'ić', 'ać', 'eć', 'ł', 'li', 'ły'];
const randomPolishWord = () => {
  let w = ''; const n = 1 + Math.floor(rnd() * 10);
  for (let k = 0; k < n; k++) w += polishAlpha[Math.floor(rnd() * (rnd() < 0.9 ? 33 : polishAlpha.length))];
  return w + pick(polishEndings);
};
for (let i = 0; i < N; i++) {
  let s = '';
  for (let k = Math.floor(rnd() * 30); k > 0; k--) s += (rnd() < 0.3 ? pick(polishWords) : rnd() < 0.8 ? randomPolishWord() : pick(pieces)) + pick([' ', ' ', '-', ', ', '.', '']);
  cases.push(['polish', s]);
  cases.push(['stempel', rnd() < 0.1 ? pick(polishWords).toLowerCase() : randomPolishWord()]);
}
for (let cp = 0; cp < 0x110000; cp += 1 + Math.floor(rnd() * 40)) cases.push(['lower', String.fromCodePoint(cp)]);
writeFileSync('/tmp/fuzz-in.txt', cases.map(([m, t]) => `${m} ${hex(t)}`).join('\n') + '\n');
const classDir = mkdtempSync(join(tmpdir(), 'lucene-harness-'));
const LUCENE = '/usr/share/java/lucene-core-8.7.0.jar:/usr/share/java/lucene-analyzers-common-8.7.0.jar:/usr/share/java/lucene-analyzers-stempel-8.7.0.jar';
const compiled = spawnSync('javac', ['-cp', LUCENE, '-d', classDir, join(dirname(fileURLToPath(import.meta.url)), 'Harness.java')]);
if (compiled.status !== 0) { console.error(compiled.stderr.toString() || 'javac not found: apt-get install default-jdk-headless liblucene8-java'); process.exit(1); }
const CP = LUCENE + ':' + classDir;
const r = spawnSync('java', ['-cp', CP, 'Harness'], { input: readFileSync('/tmp/fuzz-in.txt'), maxBuffer: 1 << 30 });
if (r.status !== 0) { console.error(r.stderr.toString()); process.exit(1); }
const outs = r.stdout.toString().split('\n');
const inst = { english: analyzers.english.create(), standard: analyzers.standard.create(), simple: analyzers.simple.create(), polish: analyzers.polish.create() };
let bad = 0; const badBy: Record<string, number> = {};
cases.forEach(([mode, text], i) => {
  let mine: string; let ref = outs[i] ?? '';
  if (mode === 'tok') mine = standardTokenize(text).map((t) => `${t.start}:${t.end}:${t.type}:${hex(t.text)}`).join(' ');
  else if (mode === 'porter') mine = hex(porterStem(text));
  else if (mode === 'lower') mine = hex(javaLowerCase(text));
  // StempelStemmer.stem returns null for an empty result, where stempelStem keeps the word (as the filter does).
  else if (mode === 'stempel') { mine = hex(stempelStem(text)); if (ref === '-') ref = hex(text); }
  else { mine = inst[mode as 'english'].analyzeWithOffsets(text).map((t) => `${t.start}:${t.end}:${hex(t.term)}`).join(' '); ref = ref.split(' ').filter(Boolean).map((x) => { const p = x.split(':'); return `${p[0]}:${p[1]}:${p[3] ?? ''}`; }).join(' '); }
  if (mine !== ref) { bad++; badBy[mode] = (badBy[mode] ?? 0) + 1; if (bad <= 5) console.log('MISMATCH', mode, JSON.stringify(text).slice(0, 300), '\n ref ', ref.slice(0, 400), '\n mine', mine.slice(0, 400)); }
});
console.log('seed', seed0, 'cases', cases.length, 'mismatches', bad, badBy);
