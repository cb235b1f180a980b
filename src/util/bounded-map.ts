/**
 * A Map that holds at most `capacity` entries, the oldest written going first when a new key arrives: the
 * per-process memos of the hot paths (verified tokens and API keys, signed cookies, last-seen marks), which
 * must stay small whatever clients send.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly capacity: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.capacity && !this.has(key)) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
