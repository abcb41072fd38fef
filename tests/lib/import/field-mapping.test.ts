import { describe, expect, test } from 'vitest';
import { BEIR_FIELDS, guessFieldMapping, mappingProblems } from '../../../src/lib/import/field-mapping.ts';

describe('guessing the fields of a corpus from its first records', () => {
  test("BEIR's own records map to _id / text / title", () => {
    const guess = guessFieldMapping([{ _id: 'd1', title: 'T', text: 'x', metadata: {} }]);
    expect(guess.mapping).toEqual(BEIR_FIELDS);
    expect(guess.reasons).toEqual({ id: 'name', text: 'name', title: 'name' });
    expect(guess.fields).toEqual(['_id', 'title', 'text', 'metadata']);
  });

  test("Pyserini's {id, contents} has no title", () => {
    const guess = guessFieldMapping([{ id: 'doc1', contents: 'The quick brown fox.' }, { id: 'doc2', contents: 'Jumps.' }]);
    expect(guess.mapping).toEqual({ id: 'id', text: 'contents', title: null });
    expect(guess.reasons.title).toBe('none');
  });

  test('CSV columns doc_id, body (names from the header even without rows)', () => {
    expect(guessFieldMapping([], ['doc_id', 'body']).mapping).toEqual({ id: 'doc_id', text: 'body', title: null });
  });

  test('names are compared without case, and the conventions have an order (_id before id, text before body)', () => {
    expect(guessFieldMapping([{ DocID: 'a', Passage: 'p', Title: 't' }]).mapping).toEqual({ id: 'DocID', text: 'Passage', title: 'Title' });
    expect(guessFieldMapping([{ id: '1', _id: 'a', body: 'b', text: 't' }]).mapping).toEqual({ id: '_id', text: 'text', title: null });
    expect(guessFieldMapping([{ docid: 'a', content: 'c' }]).mapping).toEqual({ id: 'docid', text: 'content', title: null });
  });

  test('unknown names: the id is a distinct single token, the text the longest strings', () => {
    const records = [
      { key: 'k-1', lang: 'en', article: 'A long article about bread and how it rises.' },
      { key: 'k-2', lang: 'en', article: 'Another long article, this one about tea.' },
    ];
    const guess = guessFieldMapping(records);
    expect(guess.mapping).toEqual({ id: 'key', text: 'article', title: null });
    expect(guess.reasons).toEqual({ id: 'values', text: 'values', title: 'none' });
    // "lang" repeats, so it cannot be the id; it is shorter than "article", so not the text.
  });

  test('nothing that can be an id: the id is left for the person to choose', () => {
    const guess = guessFieldMapping([
      { a: 'same value here', b: 'x' },
      { a: 'same value here', b: 'x' },
    ]);
    expect(guess.mapping.id).toBe('');
    expect(guess.mapping.text).toBe('a');
    expect(mappingProblems(guess.mapping, guess.fields)).toEqual(['choose the field that holds the document id']);
  });

  test('samples are the first records as text', () => {
    const guess = guessFieldMapping([{ id: 7, contents: 'x' }, { id: 8, contents: 'y' }, { id: 9, contents: 'z' }, { id: 10, contents: 'w' }]);
    expect(guess.samples).toEqual([
      { id: '7', contents: 'x' },
      { id: '8', contents: 'y' },
      { id: '9', contents: 'z' },
    ]);
  });
});

describe('checking a chosen mapping', () => {
  const fields = ['doc_id', 'body', 'headline'];
  test('a complete mapping has no problems', () => {
    expect(mappingProblems({ id: 'doc_id', text: 'body', title: 'headline' }, fields)).toEqual([]);
    expect(mappingProblems({ id: 'doc_id', text: 'body', title: null }, fields)).toEqual([]);
  });
  test('missing, unknown and identical fields are named', () => {
    expect(mappingProblems({ id: '', text: '', title: null }, fields)).toEqual(['choose the field that holds the document id', 'choose the field that holds the document text']);
    expect(mappingProblems({ id: 'id', text: 'body', title: 'title' }, fields)).toEqual(['the id field "id" is not in the file', 'the title field "title" is not in the file']);
    expect(mappingProblems({ id: 'body', text: 'body', title: null }, fields)).toEqual(['the id and the text cannot be the same field']);
  });
});
