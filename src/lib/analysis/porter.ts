/**
 * The Porter stemmer exactly as Lucene 8.7's `PorterStemmer` / `PorterStemFilter` apply it.
 *
 * Algorithm: M.F. Porter, "An algorithm for suffix stripping", Program 14(3), 1980, in the variant of
 * Porter's own reference implementation that Lucene ports: step 2 also maps -bli → -ble and -logi → -log
 * (the paper has -abli → -able), words of one or two characters are left alone, and every character that is
 * not a, e, i, o, u — or y after a consonant — counts as a consonant (digits and non-ASCII letters too).
 * Terms are expected in lower case; upper-case letters are consonants, as in Lucene.
 *
 * Why not the npm `stemmer` package: it is a regex port of the same algorithm and agrees with Lucene on
 * 38,403 of the 38,404 distinct SciFact terms (REFERENCE.md); the one known difference is "eed", which
 * Lucene keeps ("eed" ends in the suffix -eed with an empty stem, measure 0, so nothing happens) while the
 * regex port lets the -ed rule take it. Writing the steps out with Lucene's index arithmetic (suffix checks
 * that may cover the whole word, `j` left unchanged by a failed suffix check, the step-5 `-ion` guard) makes
 * such differences impossible instead of patching the ones we happened to see.
 */

const A = 0x61;
const E = 0x65;
const I = 0x69;
const O = 0x6f;
const U = 0x75;
const Y = 0x79;
const L = 0x6c;
const S = 0x73;
const T = 0x74;
const Z = 0x7a;
const W = 0x77;
const X = 0x78;

/** Working state of one stemming run: the word's UTF-16 units, its current end `k` and stem end `j`. */
class PorterWord {
  readonly b: number[];
  k: number;
  j = 0;

  constructor(word: string) {
    this.b = Array.from({ length: word.length }, (_, i) => word.charCodeAt(i));
    this.k = word.length - 1;
  }

  /** b[i] is a consonant: not a vowel, and a y only when it follows a vowel or starts the word. */
  isConsonant(i: number): boolean {
    switch (this.b[i]) {
      case A:
      case E:
      case I:
      case O:
      case U:
        return false;
      case Y:
        return i === 0 ? true : !this.isConsonant(i - 1);
      default:
        return true;
    }
  }

  /** Porter's measure m of b[0..j]: the number of vowel-consonant sequences in [C](VC)^m[V]. */
  measure(): number {
    let n = 0;
    let i = 0;
    for (;;) {
      if (i > this.j) return n;
      if (!this.isConsonant(i)) break;
      i++;
    }
    i++;
    for (;;) {
      for (;;) {
        if (i > this.j) return n;
        if (this.isConsonant(i)) break;
        i++;
      }
      i++;
      n++;
      for (;;) {
        if (i > this.j) return n;
        if (!this.isConsonant(i)) break;
        i++;
      }
      i++;
    }
  }

  /** b[0..j] contains a vowel. */
  stemHasVowel(): boolean {
    for (let i = 0; i <= this.j; i++) if (!this.isConsonant(i)) return true;
    return false;
  }

  /** b[i-1..i] is a double consonant. */
  isDoubleConsonant(i: number): boolean {
    return i >= 1 && this.b[i] === this.b[i - 1] && this.isConsonant(i);
  }

  /** b[i-2..i] is consonant-vowel-consonant and the last is not w, x or y (hop → hope, but not snow). */
  isCvc(i: number): boolean {
    if (i < 2 || !this.isConsonant(i) || this.isConsonant(i - 1) || !this.isConsonant(i - 2)) return false;
    const last = this.b[i];
    return last !== W && last !== X && last !== Y;
  }

  /** b[0..k] ends with `suffix` (which may be the whole word); on success j marks the end of the stem. */
  endsWith(suffix: string): boolean {
    const length = suffix.length;
    const from = this.k - length + 1;
    if (from < 0) return false;
    for (let i = 0; i < length; i++) if (this.b[from + i] !== suffix.charCodeAt(i)) return false;
    this.j = this.k - length;
    return true;
  }

  /** Replaces b[j+1..k] with `replacement`. */
  setTo(replacement: string): void {
    const at = this.j + 1;
    for (let i = 0; i < replacement.length; i++) this.b[at + i] = replacement.charCodeAt(i);
    this.k = this.j + replacement.length;
  }

  /** Replaces the suffix found by the last `endsWith` when the stem's measure is positive. */
  replaceIfMeasured(replacement: string): void {
    if (this.measure() > 0) this.setTo(replacement);
  }

  toString(): string {
    return String.fromCharCode(...this.b.slice(0, this.k + 1));
  }
}

/** Step 1a and 1b: plurals and -ed / -ing (caresses → caress, ponies → poni, hopping → hop, hoping → hope). */
function stepPluralsAndParticiples(w: PorterWord): void {
  if (w.b[w.k] === S) {
    if (w.endsWith('sses')) w.k -= 2;
    else if (w.endsWith('ies')) w.setTo('i');
    else if (w.b[w.k - 1] !== S) w.k--;
  }
  if (w.endsWith('eed')) {
    if (w.measure() > 0) w.k--;
  } else if ((w.endsWith('ed') || w.endsWith('ing')) && w.stemHasVowel()) {
    w.k = w.j;
    if (w.endsWith('at')) w.setTo('ate');
    else if (w.endsWith('bl')) w.setTo('ble');
    else if (w.endsWith('iz')) w.setTo('ize');
    else if (w.isDoubleConsonant(w.k)) {
      const last = w.b[w.k];
      if (last !== L && last !== S && last !== Z) w.k--;
    } else if (w.measure() === 1 && w.isCvc(w.k)) w.setTo('e');
  }
}

/** Step 1c: terminal y → i when the stem has a vowel (happy → happi). */
function stepTerminalY(w: PorterWord): void {
  if (w.endsWith('y') && w.stemHasVowel()) w.b[w.k] = I;
}

/** Step 2 suffixes, grouped by the penultimate letter as in Porter's implementation; [suffix, replacement]. */
const STEP2: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  a: [['ational', 'ate'], ['tional', 'tion']],
  c: [['enci', 'ence'], ['anci', 'ance']],
  e: [['izer', 'ize']],
  l: [['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous']],
  o: [['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate']],
  s: [['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous']],
  t: [['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble']],
  g: [['logi', 'log']],
};

/** Step 3 suffixes, grouped by the last letter. */
const STEP3: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  e: [['icate', 'ic'], ['ative', ''], ['alize', 'al']],
  i: [['iciti', 'ic']],
  l: [['ical', 'ic'], ['ful', '']],
  s: [['ness', '']],
};

/** Step 4 suffixes removed when m > 1, grouped by the penultimate letter (-ion is handled apart). */
const STEP4: Readonly<Record<string, readonly string[]>> = {
  a: ['al'],
  c: ['ance', 'ence'],
  e: ['er'],
  i: ['ic'],
  l: ['able', 'ible'],
  n: ['ant', 'ement', 'ment', 'ent'],
  o: ['ou'],
  s: ['ism'],
  t: ['ate', 'iti'],
  u: ['ous'],
  v: ['ive'],
  z: ['ize'],
};

/** Tries the rules of one group in order; the first suffix that matches decides, applied or not. */
function replaceFirstMatching(w: PorterWord, rules: readonly (readonly [string, string])[] | undefined): void {
  for (const [suffix, replacement] of rules ?? []) {
    if (w.endsWith(suffix)) {
      w.replaceIfMeasured(replacement);
      return;
    }
  }
}

/** Step 2: double suffixes to single ones (relational → relate, sensibiliti → sensible). */
function stepDoubleSuffixes(w: PorterWord): void {
  if (w.k === 0) return;
  replaceFirstMatching(w, STEP2[String.fromCharCode(w.b[w.k - 1] ?? 0)]);
}

/** Step 3: -ic-, -full, -ness etc. (triplicate → triplic, hopeful → hope). */
function stepSuffixesIcFulNess(w: PorterWord): void {
  replaceFirstMatching(w, STEP3[String.fromCharCode(w.b[w.k] ?? 0)]);
}

/** Step 4: drops -ant, -ence etc. when m > 1; -ion only after s or t (adoption → adopt). */
function stepDropSuffix(w: PorterWord): void {
  if (w.k === 0) return;
  const penultimate = String.fromCharCode(w.b[w.k - 1] ?? 0);
  let found = false;
  if (penultimate === 'o' && w.endsWith('ion') && w.j >= 0 && (w.b[w.j] === S || w.b[w.j] === T)) {
    found = true;
  } else {
    found = (STEP4[penultimate] ?? []).some((suffix) => w.endsWith(suffix));
  }
  if (found && w.measure() > 1) w.k = w.j;
}

/** Step 5: final -e when m > 1 (or m = 1 and not *o), and -ll → -l when m > 1 (probate → probat, controll → control). */
function stepFinalEAndDoubleL(w: PorterWord): void {
  w.j = w.k;
  if (w.b[w.k] === E) {
    const m = w.measure();
    if (m > 1 || (m === 1 && !w.isCvc(w.k - 1))) w.k--;
  }
  if (w.b[w.k] === L && w.isDoubleConsonant(w.k) && w.measure() > 1) w.k--;
}

/** Lucene's `PorterStemmer.stem`: the stem of a lower-case term; terms shorter than 3 units are kept. */
export function porterStem(term: string): string {
  if (term.length < 3) return term;
  const w = new PorterWord(term);
  stepPluralsAndParticiples(w);
  stepTerminalY(w);
  stepDoubleSuffixes(w);
  stepSuffixesIcFulNess(w);
  stepDropSuffix(w);
  stepFinalEAndDoubleL(w);
  return w.toString();
}
