/**
 * An XLM-R-style SentencePiece tokenizer built for tests (the real ones of multilingual-e5 and
 * paraphrase-multilingual are 17 MB and not in SHARED_DIR): a Unigram model whose pieces are ▁-prefixed
 * whole words and single letters (so an unlisted word becomes several pieces, and a cut can fall inside a
 * word), Metaspace pre-tokenization, and `<s> A </s>` / `<s> A </s></s> B </s>` around the texts, by either of
 * the post-processors XLM-R tokenizer.json files use (TemplateProcessing, RobertaProcessing).
 */
import type { TokenizerFiles } from './echo-model-fixture.ts';

export const SP_SPECIALS = ['<s>', '<pad>', '</s>', '<unk>'] as const;
export const SP_MASK = '<mask>';

const WORDS = [
  'the', 'of', 'and', 'in', 'to', 'a', 'is', 'cell', 'cells', 'protein', 'gene', 'cancer', 'study', 'with', 'for',
  'that', 'we', 'were', 'was', 'by', 'patients', 'expression', 'risk', 'mice', 'zinc', 'immune', 'response',
];
const LETTERS = 'abcdefghijklmnopqrstuvwxyzáéíóúąęłńśźż'.split('');

/** Pieces by id with their scores: specials, whole words, then letters with and without the word mark. */
export function sentencePieceVocab(): Array<[string, number]> {
  return [
    ...SP_SPECIALS.map((piece): [string, number] => [piece, 0]),
    ...WORDS.map((word, i): [string, number] => [`▁${word}`, -3 - i / 100]),
    ['▁', -6],
    ...LETTERS.flatMap((letter): Array<[string, number]> => [[`▁${letter}`, -8], [letter, -8.5]]),
    [SP_MASK, 0],
  ];
}

function special(id: number, content: string) {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
}

export function sentencePieceTokenizer(processor: 'template' | 'roberta'): TokenizerFiles {
  const vocab = sentencePieceVocab();
  const idOf = (piece: string) => vocab.findIndex(([p]) => p === piece);
  const [bos, eos] = [idOf('<s>'), idOf('</s>')];
  const token = (id: string, type_id = 0) => ({ SpecialToken: { id, type_id } });
  const sequence = (id: 'A' | 'B', type_id = 0) => ({ Sequence: { id, type_id } });
  const post_processor =
    processor === 'template'
      ? {
          type: 'TemplateProcessing',
          single: [token('<s>'), sequence('A'), token('</s>')],
          pair: [token('<s>'), sequence('A'), token('</s>'), token('</s>'), sequence('B'), token('</s>')],
          special_tokens: {
            '<s>': { id: '<s>', ids: [bos], tokens: ['<s>'] },
            '</s>': { id: '</s>', ids: [eos], tokens: ['</s>'] },
          },
        }
      : { type: 'RobertaProcessing', sep: ['</s>', eos], cls: ['<s>', bos], trim_offsets: true, add_prefix_space: true };
  const json = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [...SP_SPECIALS.map((piece) => special(idOf(piece), piece)), special(idOf(SP_MASK), SP_MASK)],
    normalizer: { type: 'NFKC' },
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    post_processor,
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: idOf('<unk>'), vocab, byte_fallback: false },
  };
  const config = {
    tokenizer_class: 'XLMRobertaTokenizer',
    bos_token: '<s>',
    eos_token: '</s>',
    sep_token: '</s>',
    cls_token: '<s>',
    unk_token: '<unk>',
    pad_token: '<pad>',
    mask_token: SP_MASK,
    model_max_length: 512,
  };
  return { json, config };
}
