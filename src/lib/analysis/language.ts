/**
 * The languages a collection can be in, what each implies for retrieval, and the rule that guesses a
 * language from the text when nothing says it (a local import): the analyzer new BM25 columns use, and
 * whether English-only models fit.
 *
 * Detection rule: count, over a sample of the documents, the words that belong to a short list of the most
 * frequent English function words and to one of Polish function words (none is in both lists); Polish wins
 * when its words outnumber the English ones. Function words make up a large share of any running text, so a
 * few documents decide; a sample without any (titles, identifiers) falls back to the share of the Polish
 * letters ą ć ę ł ń ś ź ż among all letters (at least 0.5%).
 */
import type { AnalyzerName } from './analyzers.ts';

export type Language = 'en' | 'pl';

export interface LanguageInfo {
  readonly code: Language;
  readonly label: string;
  /** The analyzer new BM25 columns get on a collection in this language. */
  readonly analyzer: AnalyzerName;
}

export const LANGUAGES: Readonly<Record<Language, LanguageInfo>> = {
  en: { code: 'en', label: 'English', analyzer: 'english' },
  pl: { code: 'pl', label: 'Polish', analyzer: 'polish' },
};

export const languageCodes = Object.keys(LANGUAGES) as Language[];

/** A collection's language; rows stored before languages existed are English. */
export function collectionLanguage(collection: { language?: Language } | undefined): Language {
  return collection?.language ?? 'en';
}

const ENGLISH_WORDS = new Set(['the', 'of', 'and', 'is', 'are', 'was', 'for', 'that', 'with', 'this', 'from', 'by', 'be', 'it', 'as', 'an', 'or', 'which', 'have', 'has']);
const POLISH_WORDS = new Set(['się', 'nie', 'jest', 'na', 'że', 'do', 'w', 'z', 'oraz', 'lub', 'jak', 'od', 'dla', 'przez', 'są', 'po', 'ze', 'czy', 'tym', 'być']);
const POLISH_LETTERS = /[ąćęłńśźżĄĆĘŁŃŚŹŻ]/gu;
const LETTER = /\p{L}/gu;
const WORD = /\p{L}+/gu;

/** Characters of text looked at, at most, so detection stays cheap on any corpus. */
const SAMPLE_CHARS = 200_000;

/** Accumulates texts (documents as they stream in) and tells their language by the rule above. */
export class LanguageSample {
  private chars = 0;
  private english = 0;
  private polish = 0;
  private letters = 0;
  private polishLetters = 0;

  get full(): boolean {
    return this.chars >= SAMPLE_CHARS;
  }

  add(text: string): void {
    if (this.full) return;
    const part = text.slice(0, SAMPLE_CHARS - this.chars);
    this.chars += part.length;
    for (const [word] of part.toLowerCase().matchAll(WORD)) {
      if (ENGLISH_WORDS.has(word)) this.english++;
      else if (POLISH_WORDS.has(word)) this.polish++;
    }
    this.letters += part.match(LETTER)?.length ?? 0;
    this.polishLetters += part.match(POLISH_LETTERS)?.length ?? 0;
  }

  get language(): Language {
    if (this.english + this.polish > 0) return this.polish > this.english ? 'pl' : 'en';
    return this.letters > 0 && this.polishLetters / this.letters >= 0.005 ? 'pl' : 'en';
  }
}
