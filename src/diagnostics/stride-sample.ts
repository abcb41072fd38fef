/** `count` texts spread evenly over the list, so their length distribution matches the whole list's. */
export function strideSample(texts: readonly string[], count: number): string[] {
  const step = Math.max(1, Math.floor(texts.length / Math.max(1, count)));
  return texts.filter((_, i) => i % step === 0).slice(0, count);
}
