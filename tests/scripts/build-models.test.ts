import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../temp-dir.ts';
import { expect, test } from 'vitest';
import { buildModels } from '../../scripts/models/build-models.ts';

const out = tempDir('rp-models-');

test('npm run models writes the transformers.js layout once, then skips until forced', () => {
  expect(buildModels({ out, only: ['tiny-bert'] })).toEqual(['tiny-bert']);
  const dir = join(out, 'local', 'tiny-bert');
  for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'vocab.txt', 'onnx/model.onnx', 'onnx/model_quantized.onnx', '.stamp']) {
    expect(existsSync(join(dir, file))).toBe(true);
  }
  expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toMatchObject({ model_type: 'bert' });
  expect(buildModels({ out, only: ['tiny-bert'] })).toEqual([]);
  expect(buildModels({ out, only: ['tiny-bert'], force: true })).toEqual(['tiny-bert']);
  expect(existsSync(`${dir}.tmp-${process.pid}`)).toBe(false);
});
