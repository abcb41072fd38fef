/**
 * Query-term highlighting without HTML: a text becomes segments, each plain or marked, which the view
 * renders as text nodes and <mark> elements (never as markup). Terms are matched after analysis — the
 * analyzer's offsets (src/lib/analysis `analyzeWithOffsets`) say which span of the text each term came
 * from, so "allyl" in the query marks "Allyl's" in a document, and a stop word marks nothing.
 */
import type { Token } from '../../lib/analysis/analyzer.ts';

export interface Segment {
  text: string;
  mark: boolean;
}

/** Segments of `text[start, end)` with the tokens whose term is in `terms` marked. */
export function markTerms(text: string, tokens: readonly Token[], terms: ReadonlySet<string>, start = 0, end = text.length): Segment[] {
  const segments: Segment[] = [];
  let at = start;
  const push = (to: number, mark: boolean) => {
    if (to <= at) return;
    const last = segments[segments.length - 1];
    const piece = text.slice(at, to);
    if (last !== undefined && last.mark === mark) last.text += piece;
    else segments.push({ text: piece, mark });
    at = to;
  };
  for (const token of tokens) {
    if (!terms.has(token.term) || token.end <= at || token.start >= end) continue;
    push(Math.max(at, token.start), false);
    push(Math.min(end, token.end), true);
  }
  push(end, false);
  return segments;
}

export interface Snippet {
  segments: Segment[];
  /** Text was cut before / after the snippet (show an ellipsis). */
  cutStart: boolean;
  cutEnd: boolean;
}

const CONTEXT_BEFORE = 0.25;

/** The nearest word boundary at or after `i` (or `i` when none is close). */
function wordStart(text: string, i: number): number {
  if (i <= 0) return 0;
  const space = text.slice(i, i + 20).search(/\s/);
  return space < 0 ? i : i + space + 1;
}

/** The nearest word boundary at or before `i`. */
function wordEnd(text: string, i: number): number {
  if (i >= text.length) return text.length;
  const space = text.slice(Math.max(0, i - 20), i).search(/\s\S*$/);
  return space < 0 ? i : Math.max(0, i - 20) + space;
}

/**
 * About `maxChars` characters of `text` around the densest run of matched terms (distinct terms count
 * more than repeats), cut at word boundaries; the start of the text when nothing matches.
 */
export function snippetOf(text: string, tokens: readonly Token[], terms: ReadonlySet<string>, maxChars = 240): Snippet {
  if (text.length <= maxChars) return { segments: markTerms(text, tokens, terms), cutStart: false, cutEnd: false };
  const matches = tokens.filter((token) => terms.has(token.term));
  let bestStart = 0;
  let bestScore = -1;
  for (const anchor of matches) {
    const start = Math.max(0, Math.min(anchor.start - Math.round(maxChars * CONTEXT_BEFORE), text.length - maxChars));
    const inside = matches.filter((m) => m.start >= start && m.end <= start + maxChars);
    const score = new Set(inside.map((m) => m.term)).size * 100 + inside.length;
    if (score > bestScore) {
      bestScore = score;
      bestStart = start;
    }
  }
  const start = wordStart(text, bestStart);
  const end = Math.max(start, wordEnd(text, Math.min(text.length, bestStart + maxChars)));
  return { segments: markTerms(text, tokens, terms, start, end), cutStart: start > 0, cutEnd: end < text.length };
}
