/**
 * The WebAssembly BM25 kernel (`assembly/bm25/`, compiled by `npm run build:wasm` to
 * `build/wasm/bm25.wasm`): its exports, typed, and fresh typed-array views of its memory.
 *
 * One instance holds one index. Instantiation is synchronous (`new WebAssembly.Instance`): the module is a
 * few kilobytes, well under the size browsers allow to instantiate synchronously on the main thread, so
 * indexes can be created without awaiting once the module is compiled.
 */

/** What `assembly/bm25/index.ts` exports. Pointers are byte offsets into `memory`. */
export interface Bm25KernelExports {
  readonly memory: WebAssembly.Memory;
  builderTokenBuffer(count: number): number;
  builderLengthBuffer(count: number): number;
  builderAddBatch(numDocs: number, numTokens: number, numTerms: number): void;
  builderFinish(numTerms: number): void;
  builderNumDocs(): number;
  builderNumPairs(): number;
  builderReset(): void;
  allocateIndex(numDocs: number, numTerms: number, numPostings: number, numOverflow: number): void;
  freeIndex(): void;
  /** -1: the copied postings are sound; a posting index: its docid is out of range; -2: overflow count differs. */
  checkPostings(): number;
  indexDocLengths(): number;
  indexNorms(): number;
  indexStarts(): number;
  indexDocs(): number;
  indexFreqs(): number;
  indexOverflowAt(): number;
  indexOverflowFreq(): number;
  indexNumDocs(): number;
  indexNumTerms(): number;
  indexNumPostings(): number;
  indexNumOverflow(): number;
  normInverseTable(): number;
  paramsChanged(): void;
  clauseBuffer(count: number): number;
  excludedBuffer(count: number): number;
  search(numClauses: number, numExcluded: number, k: number, strategy: number): number;
  resultDocs(): number;
  resultScores(): number;
}

/** Term frequencies of 255 and more are stored as this byte plus an entry in the overflow table. */
export const FREQ_OVERFLOW = 255;

/** Raised by the kernel's `abort` (an allocation beyond 4 GiB of memory, for instance). */
export class Bm25KernelError extends Error {
  override name = 'Bm25KernelError';
}

/** Reads an AssemblyScript string (UTF-16, byte length stored just before it). */
function readAsString(memory: WebAssembly.Memory, ptr: number): string {
  if (ptr === 0) return '';
  const bytes = new Uint32Array(memory.buffer, ptr - 4, 1)[0]!;
  return String.fromCharCode(...new Uint16Array(memory.buffer, ptr, bytes >>> 1));
}

/** A kernel instance and views of its memory (re-created on each call: memory growth detaches old ones). */
export class Bm25Kernel {
  readonly exports: Bm25KernelExports;

  constructor(module: WebAssembly.Module) {
    let memory: WebAssembly.Memory | undefined;
    const imports = {
      env: {
        abort(message: number, file: number, line: number, column: number): never {
          const text = memory ? `${readAsString(memory, message)} at ${readAsString(memory, file)}:${line}:${column}` : 'abort';
          throw new Bm25KernelError(`BM25 kernel: ${text}`);
        },
      },
    };
    const instance = new WebAssembly.Instance(module, imports);
    // The instance's exports are exactly the functions of assembly/bm25/index.ts.
    this.exports = instance.exports as unknown as Bm25KernelExports;
    memory = this.exports.memory;
  }

  /** Bytes of linear memory the instance holds (its whole footprint: indexes, scratch, free space). */
  get memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }

  u8(ptr: number, length: number): Uint8Array {
    return new Uint8Array(this.exports.memory.buffer, ptr, length);
  }

  u32(ptr: number, length: number): Uint32Array {
    return new Uint32Array(this.exports.memory.buffer, ptr, length);
  }

  i32(ptr: number, length: number): Int32Array {
    return new Int32Array(this.exports.memory.buffer, ptr, length);
  }

  f32(ptr: number, length: number): Float32Array {
    return new Float32Array(this.exports.memory.buffer, ptr, length);
  }
}
