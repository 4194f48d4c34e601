/** A growing list of numbers in a Float64Array (8 bytes a value, not a boxed number in an array). */
export class NumberSeries {
  private values = new Float64Array(64);
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(value: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = value;
  }

  /** The values pushed so far, in order (a view: valid until the next push). */
  view(): Float64Array {
    return this.values.subarray(0, this.size);
  }
}
