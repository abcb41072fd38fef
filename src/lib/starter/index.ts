/**
 * The starter collection: a small, original, English test collection in BEIR layout that the app opens on
 * offline. Its data lives beside this file in `data/` (`corpus.jsonl`, `queries.jsonl`, `qrels/test.tsv`);
 * this module only describes it, so it stays free of bundler- and Node-specific imports (the app reads the
 * files through Vite `?raw` imports, Node tests and the CLI read them from disk).
 *
 * ## What it is for
 * Every query is built to show one retrieval behaviour, and its `metadata` says which (`kind`) and why
 * (`note`, one sentence for the teacher). Grades: 2 highly relevant, 1 relevant, 0 judged non-relevant. Every
 * query has judged-0 distractors: for semantic queries they share the query's words but not its meaning; for
 * lexical queries they share the meaning but not the rare term; for hybrid queries there are both kinds.
 * The Brimwell, Marlow, Velomark and Tarrant products and the soil scientist Okonkwo-Reyes with her trials are
 * fictional, and their documents say so; everything else is meant to be accurate.
 *
 * Term overlap below is counted after an English analysis like Lucene's EnglishAnalyzer (lower case, its 33
 * stop words, Porter stems), on title + " " + text. BM25 behaviour was checked with k1 = 0.9, b = 0.4 (the
 * Pyserini defaults); dense behaviour is by design and was not measured (no embedding model ships offline).
 *
 * ## Lexical (BM25 wins): a rare token occurs only in the relevant documents
 * - q01 "allyl isothiocyanate": the compound is named only in food-01 (wasabi) and food-02 (mustard);
 *   capsaicin, onion and pepper documents are about the same sensation without the name.
 * - q04 "Shoemaker-Levy 9 comet": the name is only in astro-01/02; Halley, Tunguska (share "comet") and
 *   Chicxulub are impact and comet stories without it.
 * - q07 "RX-4471 recall": "4471" is only in bike-01/02; bike-03 recalls an RX-4417 clamp (shares "rx",
 *   "recall"), bike-04 another recall, bike-05 is about the same kind of part.
 * - q10 "37-622 tyre size": "622" is only in bike-15; bike-16/17 share "tyre", "size".
 * - q12 "Semmelweis and childbed fever": the surname is only in health-06/07; Lister, Snow and Nightingale
 *   are the same history of hygiene without it; painkiller pages share only "fever".
 * - q14 "Which computer had 17,468 vacuum tubes?": the number (one token, as StandardTokenizer keeps
 *   "17,468") is only in comp-01; Colossus, UNIVAC and transistor pages share "computer", "vacuum", "tubes".
 * - q18 "Okonkwo-Reyes compost trial": the fictional name is only in garden-06/07; composting and
 *   garden-trial pages share "compost" or "trial".
 * - q20 "acetylsalicylic acid": the name is only in health-16/17; the salicylic-acid skin-care page and
 *   Lister's carbolic acid share "acid", the ibuprofen/paracetamol page shares the meaning.
 *
 * ## Semantic (dense wins): no relevant document shares a single analyzed term with the query, so BM25
 * (and LEDR's product, which is 0 when BM25 is 0) cannot rank them; judged-0 pages do share the words.
 * - q02 "Why does bread go hard after a few days?": food-06/07 say "loaf", "stale", "firm", "crumb",
 *   "retrogradation"; food-08 (hard water, bread dough), food-09 (sourdough, first few days), food-10
 *   (hard-boiled eggs a few days old) and food-20 (toasting bread) share the words.
 * - q05 "What is left behind when a giant star blows apart?": astro-06 (Crab Nebula) and astro-07 say
 *   "supernova", "remnant", "pulsar", "neutron", "massive sun"; astro-10 (the Sun as a red giant, "what is
 *   left behind") is the hardest distractor, with Jupiter "the giant", Tunguska "broke apart", star-finding
 *   and star-trail pages.
 * - q08 "bike squeaks every time I slow down": bike-06/07 say "squeal", "howls", "brakes", "pads",
 *   "rotor"; lights ("every time the bike"), slow punctures ("go down") and downhill riding ("slow down")
 *   share the words.
 * - q11 "heart attack warning signs": health-01/02 say "myocardial infarction", "coronary", "chest";
 *   dehydration "warning signs", a "panic attack" with a pounding heart, heart-rate zones and low-dose
 *   aspirin "after a heart attack" share the words.
 * - q15 "Who wrote the first program for a machine that was never built?": comp-08 (Lovelace, Note G,
 *   "no complete Analytical Engine was ever constructed"); Manchester Baby ("first program", "built"),
 *   Grace Hopper ("wrote", "first compiler") and the Difference Engine ("never finished", "built") share them.
 * - q17 "plants that come back every year without replanting": garden-01 (perennials: "seasons",
 *   "spring") and garden-02 (self-seeding flowers "return"); bedding annuals ("replant every year"),
 *   repotting and crop rotation ("comes back ... every year") share the words.
 * - q21 "Is it safe to refreeze meat that has thawed?": food-16 says "defrosted", "beef, pork or
 *   chicken", "back into the freezer"; safe meat temperatures, salt-and-ice ("thaw") and the Maillard
 *   reaction ("meat") share the words.
 *
 * ## Hybrid (LEDR = dense cosine × BM25 wins): the relevant document needs the exact term and the meaning.
 * Each has lexical traps that repeat the term with another meaning (BM25 ranks one of them first; the
 * relevant page is second or third at 0.78–0.93 of its score) and semantic traps with the meaning but
 * another entity (their BM25 is at most 0.62 of the relevant page's, so the product keeps them down).
 * - q03 "Brimwell K-90 lid stuck shut after cooking": food-11 has "Brimwell K-90" and "lid" but says
 *   "cannot be twisted free"; lexical traps food-12/13 (K-90 cooking times, gasket); semantic traps
 *   food-14 (a stuck jar lid) and food-15 (the Marlow M-7 lid that "refuses to open").
 * - q06 "How long does sunlight take to reach Mars?": astro-11 has "Mars" and "sunlight" but not "how
 *   long", "take" or "reach"; lexical trap astro-13 (spacecraft "take" seven months to "reach" Mars);
 *   semantic trap astro-12 (light needs 8 min 20 s to arrive at Earth) and astro-16 (light-years).
 * - q09 "How do I pump up a Presta valve?": bike-11 has "Presta", "valve", "pump" once each; lexical traps
 *   bike-12/13 (Presta length, Presta cores); semantic trap bike-14 (inflating a Schrader valve).
 * - q13 "vitamin B12 deficiency in people who eat no animal products": health-11 says "vegans",
 *   "shortfall"; lexical traps health-12 (pernicious anaemia, "B12 deficiency"), health-13, health-15;
 *   semantic trap health-14 (iron for vegans).
 * - q16 "Who programmed ENIAC?": comp-04 (the six women who set up ENIAC, never "programmed"); lexical
 *   traps comp-01/02/03 (ENIAC hardware, press day, patent case); semantic traps comp-10 (Grace Hopper
 *   "programmed" the Harvard Mark I) and comp-05 (the Wrens who set up Colossus).
 * - q19 "Is Epsom salt good for tomatoes?": garden-11 has "Epsom salt" and "tomatoes"; lexical trap
 *   health-20 (Epsom salt baths, also "good evidence"); semantic traps garden-12/13 (blossom end rot,
 *   feeding tomatoes).
 * - q22 "How was the Apollo Guidance Computer's software stored?": comp-13 (rope memory "woven", never
 *   "software" or "stored"); lexical traps comp-14/15 (the 1202 alarm, the DSKY); semantic trap comp-16
 *   (magnetic core memory threaded by hand) and comp-12 (punched cards).
 */

/** What a starter query is built to demonstrate. */
export type StarterQueryKind = 'lexical' | 'semantic' | 'hybrid';

export const STARTER_QUERY_KINDS: readonly StarterQueryKind[] = ['lexical', 'semantic', 'hybrid'];

/** The `metadata` object carried by every line of the starter `queries.jsonl`. */
export interface StarterQueryMetadata {
  kind: StarterQueryKind;
  /** One sentence for the teacher: what the query shows and why. */
  note: string;
}

/** Narrows a parsed query's `metadata` to the starter shape. */
export function isStarterQueryMetadata(value: unknown): value is StarterQueryMetadata {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, note } = value as Record<string, unknown>;
  return STARTER_QUERY_KINDS.includes(kind as StarterQueryKind) && typeof note === 'string' && note.length > 0;
}

/** Document id prefix → theme, for grouping in the UI. */
export const STARTER_THEMES = {
  food: 'Kitchen and food science',
  astro: 'Astronomy',
  bike: 'Bicycles and repair',
  health: 'Health and the history of medicine',
  comp: 'History of computing',
  garden: 'Gardening',
} as const;

/** The collection's description and files; paths are relative to this directory, in BEIR layout. */
export const STARTER_COLLECTION = {
  id: 'starter',
  name: 'Starter: ideas in six fields',
  description:
    'A small original collection on food science, astronomy, bicycles, health, the history of computing and ' +
    'gardening, written to show where BM25 wins (rare names, codes, numbers, chemical names), where a dense ' +
    'model wins (synonyms and paraphrases) and where LEDR, dense cosine times BM25, needs both.',
  language: 'en',
  licence: 'CC BY 4.0',
  attribution: 'Retrieval Playground authors',
  files: {
    corpus: 'data/corpus.jsonl',
    queries: 'data/queries.jsonl',
    qrels: 'data/qrels/test.tsv',
  },
  counts: { documents: 107, queries: 22, judgments: 116 },
} as const;
