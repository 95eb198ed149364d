/** A phone's first line in the file, and whether this run created its contact. */
export interface FirstLine {
  line: number;
  created: boolean;
}

/** E.164 as the workers store it: at most 15 digits, so the digits fit a double exactly (< 2^53). */
const E164 = /^\+[1-9]\d{1,14}$/;
const EMPTY = 0;
const INITIAL_SLOTS = 1 << 12;

/**
 * The first line of every phone of an import, for files of millions of rows. A Map of
 * phone strings to objects took about 100 bytes a row; this open-addressing table keeps a
 * phone as its digits in a Float64Array, its line in a Uint32Array and its flag in a
 * Uint8Array, 13 bytes a slot: 26–52 bytes a row (51 measured at a million rows). A phone that is not E.164 (no worker answers one) goes to a plain Map.
 */
export class PhoneFirstLines {
  private keys = new Float64Array(INITIAL_SLOTS);
  /** 0 marks an empty slot (lines start at 1). */
  private lines = new Uint32Array(INITIAL_SLOTS);
  private created = new Uint8Array(INITIAL_SLOTS);
  private used = 0;
  private readonly others = new Map<string, FirstLine>();

  get(phone: string): FirstLine | undefined {
    if (!E164.test(phone)) return this.others.get(phone);
    const slot = this.slotOf(Number(phone.slice(1)));
    const line = this.lines[slot] as number;
    return line === EMPTY ? undefined : { line, created: this.created[slot] === 1 };
  }

  /** Records or replaces the phone's first line. */
  set(phone: string, first: FirstLine): void {
    if (!E164.test(phone)) {
      this.others.set(phone, first);
      return;
    }
    if (!Number.isInteger(first.line) || first.line < 1 || first.line > 0xffffffff) throw new RangeError(`line ${first.line} is out of range`);
    const key = Number(phone.slice(1));
    let slot = this.slotOf(key);
    if (this.lines[slot] === EMPTY) {
      // Grown at half full, so a probe stays short.
      if ((this.used + 1) * 2 > this.keys.length) {
        this.grow();
        slot = this.slotOf(key);
      }
      this.used++;
      this.keys[slot] = key;
    }
    this.lines[slot] = first.line;
    this.created[slot] = first.created ? 1 : 0;
  }

  get size(): number {
    return this.used + this.others.size;
  }

  /** The key's slot, or the empty slot where it goes (linear probing). */
  private slotOf(key: number): number {
    const mask = this.keys.length - 1;
    // The low and high halves mixed: phones of one area differ only in their last digits.
    let slot = Math.imul((key % 0x100000000) ^ Math.floor(key / 0x100000000), 0x9e3779b1) & mask;
    while (this.lines[slot] !== EMPTY && this.keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { keys, lines, created } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.lines = new Uint32Array(keys.length * 2);
    this.created = new Uint8Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (lines[i] === EMPTY) continue;
      const slot = this.slotOf(keys[i] as number);
      this.keys[slot] = keys[i] as number;
      this.lines[slot] = lines[i] as number;
      this.created[slot] = created[i] as number;
    }
  }
}
