import { ParseError } from '../data/errors.ts';
import { atof } from './measure-spec.ts';
import { propagateNaN } from './nan-sign.ts';

/**
 * trec_eval's `-Z zscores_file` (get_zscores.c, convert_zscores.c): per query and measure value name, a
 * mean and a standard deviation; each per-query value v is printed as (v − mean) / stddev instead, and
 * the summaries are formed from those. Lines are `qid measure mean stddev`, whitespace-separated; numbers
 * are read with C `atof` (so `nan` is NaN, as in 9.0.8's own zscores_file).
 */

export interface ZScore {
  mean: number;
  stddev: number;
  /** Which of the two is a NaN read without a minus sign (`nan`): C keeps that sign and prints it `nan`. */
  positiveNaN?: { mean: boolean; stddev: boolean };
}

/** Per query id, per value name (`P_10`, `map`). */
export type ZScores = ReadonlyMap<string, ReadonlyMap<string, ZScore>>;

/** What trec_eval prints for a value it has no mean for (MISSING_ZSCORE_VALUE). */
const MISSING_ZSCORE = -1000000;

/** Parses a zscores file; throws ParseError naming the file and line of a malformed line. */
export function parseZScores(text: string, file: string): ZScores {
  const zscores = new Map<string, Map<string, ZScore>>();
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  if (text.length === 0) throw new ParseError(file, 0, 'empty-file', 'empty zscores file');
  lines.forEach((line, index) => {
    const fields = line.trim().split(/\s+/);
    if (fields.length !== 4 || fields[0] === '') {
      throw new ParseError(file, index + 1, 'invalid-columns', `expected 4 fields 'qid measure mean stddev', got ${fields[0] === '' ? 0 : fields.length}`);
    }
    const [qid, measure, mean, stddev] = fields as [string, string, string, string];
    let byMeasure = zscores.get(qid);
    if (byMeasure === undefined) zscores.set(qid, (byMeasure = new Map()));
    if (!byMeasure.has(measure)) {
      const z: ZScore = { mean: atof(mean), stddev: atof(stddev) };
      if (Number.isNaN(z.mean) || Number.isNaN(z.stddev)) z.positiveNaN = { mean: isPositiveNaNText(mean), stddev: isPositiveNaNText(stddev) };
      byMeasure.set(measure, z);
    }
  });
  return zscores;
}

function isPositiveNaNText(text: string): boolean {
  return Number.isNaN(atof(text)) && !text.trimStart().startsWith('-');
}

/**
 * convert_zscores.c for one value: (v − mean) / stddev; with stddev 0, 0 if v equals the mean.
 * `positiveNaN` tells whether a NaN result is printed `nan` rather than `-nan` (see nan-sign.ts): it
 * carries the sign of the NaN operand it came from (the value's, `valuePositiveNaN`, else the file's).
 */
export function toZScore(zscores: ZScores, qid: string, name: string, value: number, valuePositiveNaN = false): { value: number; positiveNaN: boolean } {
  const z = zscores.get(qid)?.get(name);
  if (z === undefined) return { value: MISSING_ZSCORE, positiveNaN: false };
  // C tests `if (stddev)`: NaN is true there, so a NaN stddev divides (giving NaN) rather than comparing.
  if (z.stddev !== 0) {
    const difference = propagateNaN(value, valuePositiveNaN, z.mean, z.positiveNaN?.mean ?? false);
    const quotient = propagateNaN(value - z.mean, difference, z.stddev, z.positiveNaN?.stddev ?? false);
    return { value: (value - z.mean) / z.stddev, positiveNaN: quotient };
  }
  return { value: value === z.mean ? 0 : MISSING_ZSCORE, positiveNaN: false };
}
