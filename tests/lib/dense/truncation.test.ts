/**
 * What a transformer embedding model reads of a text, for each tokenizer family of the registry: the text's
 * own tokens cut to maxLength minus the two special tokens, then wrapped in them — [CLS] … [SEP] (BERT
 * WordPiece: all-MiniLM-L6-v2, gte-small, bge, e5, the real tokenizer files of SHARED_DIR/tokenizers) and
 * <s> … </s> (XLM-R SentencePiece: multilingual-e5, paraphrase-multilingual; a tokenizer built here, with
 * either post-processor) — as sentence-transformers (Hugging Face tokenizers) truncates.
 *
 * The ids come back from an echo model (echo-model-fixture.ts), so they are what the session received, and
 * the expectation is built here from the tokenizer's ids without special tokens and the special tokens'
 * ids as tokenizer.json lists them.
 */
import { AutoTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { loadEmbedder } from '../../../src/lib/dense/embedder.ts';
import { configureModelSource } from '../../../src/lib/dense/model-source.ts';
import { customModelSpec } from '../../../src/lib/dense/registry.ts';
import { matrixRow } from '../../../src/lib/dense/vector-matrix.ts';
import { tempDir } from '../../temp-dir.ts';
import { shared } from '../../shared-dir.ts';
import { ECHO_WIDTH, echoModel, echoedIds, sharedTokenizer, writeModelFolder, type TokenizerFiles } from './echo-model-fixture.ts';
import { sentencePieceTokenizer } from './sentencepiece-fixture.ts';

interface Family {
  name: string;
  files: TokenizerFiles;
  modelType: string;
  tokenTypes: boolean;
  open: string;
  close: string;
  /** Whether a token continues the word before it (a cut before it splits a word). */
  continues: (token: string) => boolean;
}

const FAMILIES: Family[] = [
  { name: 'all-MiniLM-L6-v2', files: sharedTokenizer('all-MiniLM-L6-v2'), modelType: 'bert', tokenTypes: true, open: '[CLS]', close: '[SEP]', continues: (t) => t.startsWith('##') },
  { name: 'gte-small', files: sharedTokenizer('gte-small'), modelType: 'bert', tokenTypes: true, open: '[CLS]', close: '[SEP]', continues: (t) => t.startsWith('##') },
  { name: 'sentencepiece-template', files: sentencePieceTokenizer('template'), modelType: 'xlm-roberta', tokenTypes: false, open: '<s>', close: '</s>', continues: (t) => !t.startsWith('▁') },
  { name: 'sentencepiece-roberta', files: sentencePieceTokenizer('roberta'), modelType: 'xlm-roberta', tokenTypes: false, open: '<s>', close: '</s>', continues: (t) => !t.startsWith('▁') },
];

const dir = tempDir('rp-trunc-');
let texts: string[];

beforeAll(async () => {
  const scifact = await loadDataset(shared('beir', 'scifact'), { splits: ['test'] });
  const docs = scifact.docs.slice(0, 30).map((doc) => `${doc.title} ${doc.text}`);
  const words = docs[0]!.split(' ');
  // Every length from one word to well past the limit, so texts fall below, at and above it.
  const growing = Array.from({ length: 60 }, (_, k) => words.slice(0, k + 1).join(' '));
  const edges = ['', '.', 'zinc', 'naïve café Ångström ﬁnance', '😀 emoji 🧬 dna 1,234.5 μm 3′-UTR IL-6/STAT3', '细胞 分裂 是 生物 的 基本 过程'];
  texts = [...edges, ...growing, ...docs, ...[...scifact.queries.values()].slice(0, 20).map((q) => q.text)];
});

/** The special token's id as tokenizer.json's added_tokens list it. */
function addedId(files: TokenizerFiles, content: string): number {
  const added = (files.json.added_tokens as Array<{ id: number; content: string }>).find((token) => token.content === content);
  if (!added) throw new Error(`${content} is not an added token`);
  return added.id;
}

type Tokenizer = { encode(text: string, options: { add_special_tokens: boolean }): number[]; model: unknown } & {
  _tokenizer: { id_to_token(id: number): string | undefined };
};

describe.each(FAMILIES)('$name', (family) => {
  let tokenizer: Tokenizer;
  const id = `echo-test/${family.name}`;

  beforeAll(async () => {
    writeModelFolder(dir, id, {
      config: { model_type: family.modelType, architectures: [], max_position_embeddings: 512 },
      tokenizer: family.files,
      onnx: { 'model.onnx': echoModel(family.tokenTypes) },
    });
    configureModelSource({ source: 'local' }, { localModelPath: dir });
    tokenizer = (await AutoTokenizer.from_pretrained(id)) as unknown as Tokenizer;
  });

  /** Built independently: the text's own ids, the first maxLength − 2 of them, between the family's two special tokens. */
  function expected(text: string, maxLength: number): number[] {
    const own = tokenizer.encode(text, { add_special_tokens: false });
    return [addedId(family.files, family.open), ...own.slice(0, maxLength - 2), addedId(family.files, family.close)];
  }

  test.each([16, 128])('at maxLength %i the model reads [open] the first maxLength − 2 tokens [close]', async (maxLength) => {
    const spec = customModelSpec(id, { source: 'local', pooling: 'none', normalize: false, maxLength, dtypes: ['fp32'] });
    configureModelSource(spec, { localModelPath: dir });
    const embedder = await loadEmbedder({ spec, device: 'cpu', dtype: 'fp32' });
    try {
      const m = await embedder.embed(texts);
      expect(m.dim).toBe(ECHO_WIDTH);
      const seen = { below: 0, at: 0, above: 0, wordCut: 0 };
      texts.forEach((text, row) => {
        const read = echoedIds(matrixRow(m, row));
        expect(read.ids, text.slice(0, 60)).toEqual(expected(text, maxLength));
        expect(read.typed).toBe(false);
        const own = tokenizer.encode(text, { add_special_tokens: false });
        const room = maxLength - 2;
        if (own.length < room) seen.below++;
        else if (own.length === room) seen.at++;
        else {
          seen.above++;
          if (family.continues(tokenizer._tokenizer.id_to_token(own[room]!) ?? '')) seen.wordCut++;
        }
      });
      // Not vacuous: texts on every side of the limit, and cuts inside a word (only checked at 16, where most texts are cut).
      expect(seen.below).toBeGreaterThan(0);
      expect(seen.above).toBeGreaterThan(5);
      if (maxLength === 16) {
        expect(seen.at).toBeGreaterThan(0);
        expect(seen.wordCut).toBeGreaterThan(0);
      }
    } finally {
      await embedder.dispose();
    }
  });
});

