/**
 * The starter collection: a small, original, English test collection in BEIR layout that the app opens on
 * offline. Its data lives beside this file in `data/` (`corpus.jsonl`, `queries.jsonl`, `qrels/test.tsv`);
 * this module only describes it, so it stays free of bundler- and Node-specific imports (the app reads the
 * files through Vite `?raw` imports, Node tests and the CLI read them from disk).
 *
 * ## What it is for
 * The playground opens on it with three columns, BM25 | dense | LEDR, and every query is built to show one
 * retrieval behaviour; its `metadata` says which (`kind`) and why (`note`, one sentence for the teacher that
 * describes what the three columns actually show). Grades: 2 highly relevant, 1 relevant, 0 judged non-relevant.
 * Every query has judged-0 distractors: for semantic queries they share the query's words but not its meaning;
 * for lexical queries they share the meaning but not the rare term; for hybrid queries there are both kinds.
 * The Brimwell, Marlow, Velomark and Tarrant products and the soil scientist Okonkwo-Reyes with her trials are
 * fictional, and their documents say so; everything else is meant to be accurate.
 *
 * ## Measured with the app's retrievers
 * tests/lib/starter/starter-retrieval.test.ts checks the claims with the real code: BM25 (Lucene's
 * EnglishAnalyzer, k1 = 0.9, b = 0.4), the offline default dense model `local/glove-100d-sif` (GloVe 6B 100d,
 * SIF-weighted mean, cosine; its fp32 and q8 files give the same nDCG@10 here) and LEDR (cosine × BM25 over
 * the BM25 top 1000). Claims: lexical, BM25 ranks a relevant document first for every query and beats dense on
 * mean nDCG@10; semantic, BM25 gives every relevant document 0 and dense beats it on every query, mean ≥ 0.6;
 * hybrid, BM25 puts a judged-0 trap first, LEDR ≥ BM25 on every query and LEDR beats both on the mean. Mean
 * nDCG@10 when the texts were last tuned (the test prints the current table):
 *
 *   kind      BM25    dense   LEDR
 *   lexical   1.000   0.783   1.000
 *   semantic  0.000   0.960   0.000
 *   hybrid    0.612   0.789   1.000
 *
 * Term overlap below is counted after Lucene's EnglishAnalyzer (lower case, its 33 stop words, Porter stems) on
 * title + " " + text; `dense rank` is the relevant document's rank in the GloVe column.
 *
 * ## Why the texts look the way they do
 * GloVe SIF embeds a text as the mean of its word vectors weighted a / (a + p(w)), p(w) = 1/frequency rank:
 * common English words ("how", "who", "take", "after", "program") weigh almost nothing, rarer ones ("Presta",
 * "Epsom", "sunlight", "replanting") dominate, and tokens outside its vocabulary (Brimwell, K-90, 4471) weigh
 * nothing. BM25 reads the same text differently: in 107 documents "how" or "who" is rare enough to carry real
 * idf, and tf saturates after one or two mentions. The collection builds on that difference:
 * - semantic: the relevant page uses close neighbours of the query's heavy words (loaf for bread, supernova and
 *   blast for explodes, perennials and seedlings for replanting); the distractors share the query's words but
 *   are about something else, so BM25 ranks them and the cosine does not;
 * - hybrid: the lexical trap has the exact term plus the query's cheap words (how, who, up, after, good, the noun
 *   program), so BM25 ranks it first, but it is about something else, so its cosine is lower; the relevant page
 *   has the exact term and the meaning in other words, and cosine × BM25 ranks it first. Where the exact term is
 *   a heavy GloVe word (B12, ENIAC, Epsom) the dense column finds the answer as well; where it is not, or a
 *   semantic trap says the same thing about another entity, dense is fooled too (q03, q06, q09, q22).
 *
 * ## Lexical (BM25 wins): a rare token occurs only in the relevant documents
 * - q01 "allyl isothiocyanate": named only in food-01 (wasabi) and food-02 (mustard); capsaicin, onion and pepper
 *   documents describe the same sensation without the name (dense also ranks the two first: the name is rare).
 * - q04 "Shoemaker-Levy 9 comet": the name is only in astro-01/02; Halley (shares "comet"), Tunguska and
 *   Chicxulub are impact and comet stories without it (dense ranks Halley first).
 * - q07 "RX-4471 recall": "4471" is only in bike-01/02; bike-03 recalls an RX-4417 clamp (shares "rx",
 *   "recall"; dense ranks it first), bike-04 another recall, bike-05 is about the same kind of part.
 * - q10 "37-622 tyre size": "622" is only in bike-15; bike-16/17 share "tyre", "size" (dense ranks them first).
 * - q12 "Semmelweis and childbed fever": the surname is only in health-06/07; Lister, Snow and Nightingale
 *   are the same history of hygiene without it; painkiller pages share only "fever".
 * - q14 "Which computer had 17,468 vacuum tubes?": the number (one token, as StandardTokenizer keeps
 *   "17,468") is only in comp-01; Colossus, UNIVAC and transistor pages share "computer", "vacuum", "tubes"
 *   (dense, which has no vector for the number, ranks the Presta-length page on inner tubes first).
 * - q18 "Okonkwo-Reyes compost trial": the fictional name is only in garden-06/07; composting and
 *   garden-trial pages share "compost" or "trial".
 * - q20 "acetylsalicylic acid": the name is only in health-16/17; the salicylic-acid skin-care page and
 *   Lister's carbolic acid share "acid", the ibuprofen/paracetamol page shares the meaning.
 *
 * ## Semantic (dense wins): no relevant document shares a single analyzed term with the query, so BM25
 * (and LEDR's product, which is 0 when BM25 is 0) cannot rank them; judged-0 pages do share the words.
 * - q02 "Why does bread go hard after a few days?": food-06/07 say "loaf", "baguette", "stale", "starch",
 *   "crumb"; food-09 (sourdough, "first few days", "bread"), food-08 (hard water and limescale, one mention
 *   of bread dough), food-10 (hard-boiled eggs a few days old) and food-20 (toasting bread) share the words
 *   (dense ranks 2 and 1, the baguette page first).
 * - q05 "What is left after a supergiant star explodes?": astro-06 (Crab Nebula) and astro-07 say "supernova",
 *   "blast", "blew up", "pulsar", "neutron"; astro-10 (the Sun's ending: "what is left behind", "not massive
 *   enough to explode") is the closest distractor, then Tunguska ("exploded"), star-finding and star-trail pages
 *   (dense ranks 2 and 1; "supergiant" gives the query an astronomical direction that "huge" did not).
 * - q08 "bike squeaks every time I slow down": bike-06/07 say "squeal", "shriek", "howls", "brakes", "pads",
 *   "rotor"; lights ("every time the bike"), downhill riding ("slow down") and slow punctures ("go down")
 *   share the words (dense ranks 1 and 5).
 * - q11 "What are the symptoms of a heart attack?": health-01/02 say "chest pain", "sweating", "nausea",
 *   "coronary artery", "cardiac muscle"; a panic attack with a pounding heart, low-dose aspirin "after a heart
 *   attack", heart-rate zones and the symptoms of dehydration share the words (dense ranks 1 and 3, the
 *   dehydration page second).
 * - q15 "Who wrote the first program for a machine that was never built?": comp-08 (Lovelace, Note G, an
 *   engine that "stayed on paper"); Grace Hopper ("wrote", "first compiler", "programs"), Manchester Baby
 *   ("first program", "machine") and the Difference Engine ("never finished", "built") share them (dense rank 1).
 * - q17 "plants that come back every year without replanting": garden-01 (perennials: "seasons", "no seedlings
 *   to raise") and garden-02 (self-seeding flowers "return", "transplant the spares"); crop rotation ("comes
 *   back ... every year"), bedding annuals ("plants", "every year") and repotting share the words (dense 1, 2).
 * - q21 "Is it safe to refreeze meat that has thawed?": food-16 says "defrosted", "beef, pork or chicken",
 *   "back into the freezer"; safe meat temperatures, salt-and-ice ("thaw") and the Maillard reaction ("meat")
 *   share the words (dense rank 1).
 *
 * ## Hybrid (LEDR = dense cosine × BM25 wins): the relevant document needs the exact term and the meaning.
 * Each has a lexical trap that shares the exact term (for q13, most of the other words) and the query's cheap
 * words but is about something else: BM25 ranks it first and the relevant page second or third at 0.80–0.96
 * of its score, while the relevant page's cosine is 1.2–1.4 times the trap's. Semantic traps have the meaning
 * but not the term, and their BM25 is too low for the product to lift them.
 * - q03 "Brimwell K-90 lid stuck shut after cooking": food-11 has "Brimwell K-90" and "lid" and explains the
 *   locking pin; lexical traps food-12 (K-90 warranty: "after-sales", "cooking over an open fire") and food-13
 *   (K-90 sealing ring, one "lid"); semantic traps food-14 (a stuck jar lid, dense rank 1) and food-15 (the
 *   Marlow M-7 lid that "refuses to open"). The brand and model are outside GloVe's vocabulary.
 * - q06 "How long does sunlight take to reach Mars?": astro-11 has "Mars" and "sunlight" only; lexical trap
 *   astro-13 (a crew would "take" seven months to "reach" Mars); semantic trap astro-12 ("sunlight" needs
 *   8 min 20 s to cross to Earth, dense rank 1), then Moon phases, Mars's colour and moons, light-years.
 * - q09 "How do I pump up a Presta valve?": bike-11 has "Presta", "valve", "pump"; lexical traps bike-13
 *   (tubeless set-up: "how", "up", "Presta", "valve") and bike-12 (Presta valve length, "how long"); semantic
 *   trap bike-14 (inflating a Schrader valve, compared with the Presta, dense rank 1).
 * - q13 "vitamin B12 deficiency in people who eat no animal products": health-11 says "vegans", "meat, fish,
 *   dairy and eggs" and has "B12", "deficiency"; lexical trap health-15 (vitamin D "deficiency" in "people who"
 *   rarely go outdoors), then health-12 (pernicious anaemia) and health-13 (later life) with "B12"; semantic
 *   trap health-14 (iron for vegans). "B12" is heavy for GloVe, so dense ranks health-11 first as well.
 * - q16 "Who programmed ENIAC?": comp-04 (the six women, "the first computer programmers": Porter stems that
 *   to "programm", not "program"); lexical traps comp-02 (press day; the noun "program") and comp-03 (patent;
 *   "who"); semantic traps comp-10 (Grace Hopper "programmed" the Harvard Mark I) and comp-05 (the Wrens who
 *   set up Colossus). Dense ranks comp-04 first too.
 * - q19 "Is Epsom salt good for tomatoes?": garden-11 has "Epsom salt" and "tomatoes"; lexical trap health-20
 *   (salt baths: "salt" four times, "good" twice, "Epsom" once); semantic traps garden-12/13 (blossom end rot,
 *   feeding tomatoes); food-19 (salt and ice) shares only "salt". Dense ranks garden-11 first too.
 * - q22 "How was the Apollo Guidance Computer's software stored?": comp-13 (rope memory "woven", "permanent
 *   storage", never "software" or "stored"); lexical trap comp-15 (the DSKY: "how", "Apollo Guidance
 *   Computer"); comp-14 (the 1202 alarm: "Apollo", "guidance computer", "erasable memory", but about the
 *   landing) is the page dense ranks first; comp-16 (magnetic core memory threaded by hand) and comp-12
 *   (punched cards) share the idea of stored instructions without the term.
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

/** The starter collection's id: the page names it without loading any import code. */
export const STARTER_ID = 'starter';

/** The collection's description and files; paths are relative to this directory, in BEIR layout. */
export const STARTER_COLLECTION = {
  id: STARTER_ID,
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
