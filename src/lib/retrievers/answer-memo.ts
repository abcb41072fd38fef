/**
 * Answers of recent search requests by key, the latest `capacity` kept (the least recently used goes
 * first). An answer that fails is forgotten, so asking again searches again. The page's ranking memo and
 * the tuner's search both keep their answers here.
 */
export class AnswerMemo {
  private readonly answers = new Map<string, Promise<unknown>>();
  /** Requests computed rather than answered from memory (one evicted and asked again counts again). */
  computed = 0;

  constructor(private readonly capacity: number) {}

  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const known = this.answers.get(key) as Promise<T> | undefined;
    if (known !== undefined) {
      // The most recently used last: eviction takes the oldest.
      this.answers.delete(key);
      this.answers.set(key, known);
      return known;
    }
    const answer = compute();
    this.computed += 1;
    this.answers.set(key, answer);
    answer.catch(() => {
      if (this.answers.get(key) === answer) this.answers.delete(key);
    });
    while (this.answers.size > this.capacity) this.answers.delete(this.answers.keys().next().value!);
    return answer;
  }

  /** Forgets every answer whose key starts with `prefix`. */
  forgetPrefix(prefix: string): void {
    for (const key of [...this.answers.keys()]) if (key.startsWith(prefix)) this.answers.delete(key);
  }
}
