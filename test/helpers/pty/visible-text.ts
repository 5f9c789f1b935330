/**
 * The printable text of a terminal output stream: escape sequences (CSI, OSC, DCS and the like)
 * and control characters dropped, the parser's state kept across chunks. Cheaper than a screen,
 * for watching a flood's marker or an echoed key go by.
 */
export class VisibleText {
  #state: 'ground' | 'esc' | 'inter' | 'csi' | 'str' | 'str-esc' = 'ground';

  feed(chunk: string): string {
    let out = '';
    let run = -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      switch (this.#state) {
        case 'ground':
          if (c >= 0x20 && c !== 0x7f) {
            if (run < 0) run = i;
            continue;
          }
          if (run >= 0) out += chunk.slice(run, i);
          run = -1;
          if (c === 0x1b) this.#state = 'esc';
          break;
        case 'esc':
          if (c === 0x5b) this.#state = 'csi';
          else if (c === 0x5d || c === 0x50 || c === 0x5f || c === 0x5e || c === 0x58) this.#state = 'str';
          else if (c >= 0x20 && c <= 0x2f) this.#state = 'inter';
          else this.#state = 'ground';
          break;
        case 'inter':
          if (c < 0x20 || c > 0x2f) this.#state = 'ground';
          break;
        case 'csi':
          if (c >= 0x40 && c <= 0x7e) this.#state = 'ground';
          break;
        case 'str':
          if (c === 0x07) this.#state = 'ground';
          else if (c === 0x1b) this.#state = 'str-esc';
          break;
        case 'str-esc':
          this.#state = c === 0x5c ? 'ground' : 'str';
          break;
      }
    }
    if (run >= 0) out += chunk.slice(run);
    return out;
  }
}
