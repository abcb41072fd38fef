/** Fixed texts of the embedding self-test and of the browser-vs-Node parity test: short and long, punctuation, accents, digits, an unknown word. */
export const SELF_TEST_TEXTS: readonly string[] = [
  'Zinc deficiency impairs the immune response in mice.',
  'The cat sat on the mat.',
  'Vitamin D supplementation reduces the risk of fractures in elderly women: a randomized, double-blind trial of 2,686 participants over 5 years.',
  'Café owners in Kraków reported naïve résumé handling.',
  'qwertyuiopasdf unknownword',
  'Bone marrow transplantation. '.repeat(40).trim(),
];
