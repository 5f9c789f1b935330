import { Emitter } from './emitter.js';
import { isPaste, pastedText, splitKeys } from './keys.js';

/**
 * What a person has typed into an agent's input box and not sent, for an agent whose input box
 * cannot be read: counted from their keys. Enter submits, Ctrl-U and Ctrl-C clear, Backspace
 * removes a character, printable keys and pastes add to it; other escape sequences (arrows,
 * function keys) leave it as it is. Pure: keys in, text out.
 */
export class KeyDraft {
  #text = '';

  get text(): string {
    return this.#text;
  }

  /** Keys as the terminal sent them (bracketed pastes arrive through `paste`; one still bracketed counts as a paste). */
  keys(data: string): void {
    for (const key of splitKeys(data)) {
      if (isPaste(key)) this.paste(pastedText(key));
      else if (key === '\r') this.#text = '';
      else if (key === '\x15' || key === '\x03') this.#text = '';
      else if (key === '\x7f' || key === '\b') this.#text = Array.from(this.#text).slice(0, -1).join('');
      else if (key === '\n' || key === '\t' || (!key.startsWith('\x1b') && key >= ' ')) this.#text += key;
    }
  }

  paste(text: string): void {
    this.#text += text;
  }

  /** The agent's input went away with it (it exited, or relevo cleared it). */
  clear(): void {
    this.#text = '';
  }
}

/**
 * A delivery held by a person's draft: `onChange` fires true when it starts waiting and false when it
 * goes on or gives up; `withdraw()` (the relay paused) makes a waiting delivery give up.
 */
export class DraftHold {
  readonly #onChange = new Emitter<boolean>();
  readonly onChange = this.#onChange.event;
  #withdrawn = false;

  get withdrawn(): boolean {
    return this.#withdrawn;
  }

  set(on: boolean): void {
    if (on) this.#withdrawn = false;
    this.#onChange.fire(on);
  }

  withdraw(): void {
    this.#withdrawn = true;
  }

  dispose(): void {
    this.#onChange.dispose();
  }
}
