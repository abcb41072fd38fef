import { formatFixed, padRight } from '../data/c-format.ts';
import type { EvalColumn, EvalResult } from './evaluate.ts';

/**
 * trec_eval's text output (meas_print_single.c, meas_print_final.c, m_runid.c): one line per value,
 *
 *   printf("%-22s\t%s\t%6.4f\n", name, qid, value)     (integers: "%ld", runid: "%s")
 *
 * With `perQuery` (`-q`), first every evaluated query present in the run, in qrels-id order, each with all
 * its per-query values in measure order (relstring as `'%s'`); then (unless `summary` is false, `-n`) the
 * "all" rows, `runid` first. Queries only evaluated because of `-c` have no per-query rows, as in
 * trec_eval 9.0.8's out.test.aqc. With z-scores (`-Z`) every numeric line starts with `Z` and counts are
 * printed with 4 decimals too (meas_print_single.c, meas_print_final.c).
 */
export function formatTrecEval(result: EvalResult, options: { perQuery?: boolean; summary?: boolean } = {}): string {
  const lines: string[] = [];
  const prefix = result.zscore ? 'Z' : '';
  if (options.perQuery) {
    const columns = result.columns.filter((column) => column.perQuery);
    for (const query of result.queries) {
      if (!query.inRun) continue;
      for (const column of columns) {
        lines.push(
          column.text
            ? `${padRight(column.name, 22)}\t${query.qid}\t'${query.texts[column.name]}'`
            : `${prefix}${formatLine(column, query.qid, query.values[column.name]!, result.zscore, query.positiveNaN?.includes(column.name))}`,
        );
      }
    }
  }
  if (options.summary ?? true) {
    if (result.runId !== undefined) lines.push(`${padRight('runid', 22)}\tall\t${result.runId}`);
    for (const column of result.columns) {
      if (column.summary) {
        lines.push(`${prefix}${formatLine(column, 'all', result.all[column.name]!, result.zscore, result.allPositiveNaN.includes(column.name))}`);
      }
    }
  }
  return lines.map((line) => `${line}\n`).join('');
}

/** One output line without its newline (and without the `Z` of z-scores). */
function formatLine(column: Pick<EvalColumn, 'name' | 'integer'>, qid: string, value: number, zscore = false, positiveNaN = false): string {
  return `${padRight(column.name, 22)}\t${qid}\t${formatValue(column, value, zscore, positiveNaN)}`;
}

/**
 * A value as trec_eval prints it: `%ld` of the value cast to long for counts (not z-scores), else `%6.4f`;
 * a NaN as x86-64 glibc prints it, `-nan` unless `positiveNaN` (nan-sign.ts).
 */
export function formatValue(column: Pick<EvalColumn, 'integer'>, value: number, zscore = false, positiveNaN = false): string {
  if (Number.isNaN(value)) return (positiveNaN ? 'nan' : '-nan').padStart(6);
  return column.integer && !zscore ? String(Math.trunc(value)) : formatFixed(value, 4).padStart(6);
}
