/**
 * Number and column formatting as C's `printf` does it, so text output can be byte-identical to
 * trec_eval (`%-22s\t%s\t%6.4f`, see trec_eval's meas_print_single.c / meas_print_final.c) and to
 * Python's `f'{x:.6f}'` (Pyserini run files).
 *
 * `Number.prototype.toFixed` rounds the exact binary value to the nearest decimal, like glibc's printf,
 * except on exact ties: toFixed rounds them away from zero, printf rounds them to even (IEEE
 * round-half-even in the default rounding mode). Ties are real: 1/32 = 0.03125 is printed `0.0312` by
 * trec_eval and `0.0313` by `toFixed(4)`.
 */

/** Digits `toFixed` can expand exactly; every tie of ≤ 20 decimals has far fewer fractional digits. */
const EXACT_DIGITS = 100;

/**
 * `printf("%.<digits>f", value)` for `digits` in [0, 20]: round to nearest, ties to even; negative zero
 * keeps its sign (`-0.0000`), as C prints it.
 */
export function formatFixed(value: number, digits: number): string {
  if (!Number.isInteger(digits) || digits < 0 || digits > 20) {
    throw new RangeError(`digits must be an integer in [0, 20], got ${digits}`);
  }
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const negative = value < 0 || Object.is(value, -0);
  const magnitude = Math.abs(value);
  const text = magnitude < 1e21 && isExactTie(magnitude, digits) ? roundTieToEven(magnitude, digits) : magnitude.toFixed(digits);
  return negative ? `-${text}` : text;
}

/** True when `magnitude` lies exactly halfway between two numbers with `digits` decimals. */
function isExactTie(magnitude: number, digits: number): boolean {
  const exact = magnitude.toFixed(EXACT_DIGITS);
  const point = exact.indexOf('.');
  const tail = exact.slice(point + 1 + digits);
  return /^50*$/.test(tail);
}

function roundTieToEven(magnitude: number, digits: number): string {
  const exact = magnitude.toFixed(EXACT_DIGITS);
  const point = exact.indexOf('.');
  const kept = exact.slice(0, point + 1 + digits).replace(/\.$/, '');
  const lastDigit = Number(kept.replace('.', '').slice(-1));
  if (lastDigit % 2 === 0) return kept;
  return roundUp(kept);
}

/** Adds one unit in the last place of a non-negative decimal string, carrying as needed. */
function roundUp(decimal: string): string {
  const chars = decimal.split('');
  for (let i = chars.length - 1; i >= 0; i--) {
    const c = chars[i]!;
    if (c === '.') continue;
    if (c === '9') {
      chars[i] = '0';
    } else {
      chars[i] = String(Number(c) + 1);
      return chars.join('');
    }
  }
  return `1${chars.join('')}`;
}

/** `printf("%-<width>s", text)`: left-aligned, padded with spaces, never truncated. */
export function padRight(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}
