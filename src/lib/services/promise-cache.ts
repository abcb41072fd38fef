/** One promise per key, made on the first ask and forgotten when it rejects, so a later ask tries again. */
export class PromiseCache<K, V> {
  private readonly promises = new Map<K, Promise<V>>();

  get(key: K, make: () => Promise<V>): Promise<V> {
    let promise = this.promises.get(key);
    if (promise === undefined) {
      const made = make();
      promise = made;
      this.promises.set(key, made);
      made.catch(() => {
        if (this.promises.get(key) === made) this.promises.delete(key);
      });
    }
    return promise;
  }

  delete(key: K): void {
    this.promises.delete(key);
  }
}
