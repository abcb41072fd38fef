import { parquetMetadataAsync, parquetReadObjects, parquetSchema, type FileMetaData } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import type { FileRole } from '../catalog/catalog.ts';
import { ParseError } from '../data/errors.ts';
import type { RandomAccess } from './import-file.ts';
import { tableToLines, type TableRow } from './tabular.ts';

/**
 * Parquet files (NanoBEIR's corpus/queries/qrels, the hub's parquet conversions) read with hyparquet and
 * `hyparquet-compressors` (snappy, gzip, zstd, brotli, lz4), one row group at a time, and turned into BEIR
 * lines by tabular.ts. Row r (1-based) becomes line r, so a message "file:12: …" means row 12.
 */

/** The file's footer, or a ParseError naming the file. */
export async function metadataOf(file: RandomAccess, name: string): Promise<FileMetaData> {
  try {
    return await parquetMetadataAsync(file);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ParseError(name, 0, 'io', `not a readable parquet file (${message})`, { cause: error });
  }
}

/** Top-level column names. */
function parquetColumns(metadata: FileMetaData): string[] {
  return parquetSchema(metadata).children.map((child) => child.element.name);
}

async function* parquetRows(file: RandomAccess, metadata: FileMetaData, name: string, signal: AbortSignal | undefined): AsyncGenerator<TableRow> {
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    signal?.throwIfAborted();
    const rowEnd = rowStart + Number(group.num_rows);
    let rows: Array<Record<string, unknown>>;
    try {
      rows = await parquetReadObjects({ file, metadata, rowStart, rowEnd, compressors });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ParseError(name, rowStart + 1, 'io', `could not read rows ${rowStart + 1}–${rowEnd} (${message})`, { cause: error });
    }
    for (const [index, record] of rows.entries()) yield { line: rowStart + index + 1, record };
    rowStart = rowEnd;
  }
}

/** A parquet file as the bytes of BEIR lines. */
export async function* parquetToLines(
  file: RandomAccess,
  options: { role: FileRole; file: string; signal?: AbortSignal; /** See `TableToLinesOptions.skipRow`. */ skipRow?: (error: ParseError) => void },
): AsyncGenerator<Uint8Array> {
  const metadata = await metadataOf(file, options.file);
  const columns = parquetColumns(metadata);
  const { skipRow } = options;
  yield* tableToLines(parquetRows(file, metadata, options.file, options.signal), { role: options.role, columns, file: options.file, headerLine: 0, ...(skipRow === undefined ? {} : { skipRow }) });
}
