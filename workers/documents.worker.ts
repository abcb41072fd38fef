/**
 * Document lookups (comlink): the hits on screen read their documents here. IndexedDB hands over each stored
 * chunk that holds a hit whole (hundreds of documents), and decoding those chunks, a keystroke's worth on a
 * large collection, held the page's thread while the next ranking waited to be drawn; the page now gets
 * only the documents it asked for. The chunks read stay cached here (src/lib/storage/documents.ts).
 */
import * as Comlink from 'comlink';
import { getDocuments } from '../src/lib/storage/collections.ts';
import { database } from '../src/lib/storage/db.ts';
import './policy-violations.ts';

const api = {
  /** Answers as soon as the worker's event loop is free (the page's liveness check). */
  ping: () => true,
  getDocuments: (collectionId: string, docIds: string[]) => getDocuments(database(), collectionId, docIds),
};

export type DocumentsWorkerApi = typeof api;

Comlink.expose(api);
