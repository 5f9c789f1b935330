/** The TUI's prefix key: its `C-]` style name (flags, relevo.toml, the band) ↔ the byte a terminal sends. */

/** `C-]` → `\x1d`; null when the name is not a control key. */
export function parsePrefix(name: string): string | null {
  const m = /^C-([a-z@[\\\]^_])$/i.exec(name.trim());
  if (!m) return null;
  const ch = m[1]!.toUpperCase();
  return String.fromCharCode(ch.charCodeAt(0) & 0x1f);
}

export function prefixName(byte: string): string {
  return `C-${String.fromCharCode(byte.charCodeAt(0) | 0x40).toLowerCase()}`;
}
