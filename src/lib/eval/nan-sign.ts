/**
 * The sign trec_eval prints on a NaN. On x86-64, where its reference outputs were made, an operation on
 * non-NaN operands that has no value (0/0, ∞−∞) yields the "default NaN", whose sign bit is set: glibc
 * prints it `-nan` (Rndcg of a query whose ideal gains never change, iprec_at_recall with -J and nothing
 * judged retrieved). A NaN read from text (`atof("nan")`, a zscores file) is positive and prints `nan`; an
 * operation with a NaN operand returns that operand's NaN. When both are NaN, the instruction order gcc
 * chose decides; for trec_eval 9.0.8 built by its own Makefile (checked on such a build): the left operand
 * in convert_zscores.c's (value − mean) / stddev, the value added in meas_acc.c's running sums. JavaScript
 * has one NaN, so the sign is carried beside the value: `true` for a positive NaN.
 */

/**
 * Whether `a ∘ b` is a positive NaN, for a binary operation ∘ whose NaN operands are `a` (sign `aPositive`)
 * and `b` (sign `bPositive`), `a`'s NaN winning when both are; a NaN made from two numbers is negative.
 */
export function propagateNaN(a: number, aPositive: boolean, b: number, bPositive: boolean): boolean {
  if (Number.isNaN(a)) return aPositive;
  if (Number.isNaN(b)) return bPositive;
  return false;
}
