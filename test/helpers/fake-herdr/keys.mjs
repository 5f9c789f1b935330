// Key names for `pane send-keys` / `pane.send_keys` (herdr.md §1 "Sending text and keys"):
// case-insensitive names, `ctrl+x`, `alt+x`, `shift+tab`, `C-x` as an alias of `ctrl+x`.

const ESC = '\x1b';
const NAMED = new Map([
  ['enter', '\r'],
  ['return', '\r'],
  ['esc', ESC],
  ['escape', ESC],
  ['tab', '\t'],
  ['backspace', '\x7f'],
  ['space', ' '],
  ['minus', '-'],
  ['plus', '+'],
  ['delete', `${ESC}[3~`],
  ['del', `${ESC}[3~`],
  ['insert', `${ESC}[2~`],
  ['home', `${ESC}[H`],
  ['end', `${ESC}[F`],
  ['pageup', `${ESC}[5~`],
  ['pagedown', `${ESC}[6~`],
]);
const ARROWS = new Map([
  ['up', 'A'],
  ['down', 'B'],
  ['right', 'C'],
  ['left', 'D'],
]);
const FKEYS = ['OP', 'OQ', 'OR', 'OS', '[15~', '[17~', '[18~', '[19~', '[20~', '[21~', '[23~', '[24~'];

/** Bytes for one key name, or null when the name is not a key. `appCursor`: DECCKM is on. */
export function encodeKey(name, appCursor = false) {
  let rest = name.trim();
  if (rest === '') return null;
  let ctrl = false;
  let alt = false;
  let shift = false;
  if (/^C-./i.test(rest)) {
    ctrl = true;
    rest = rest.slice(2);
  }
  for (;;) {
    const m = /^(ctrl|control|alt|meta|shift)\+(.+)$/i.exec(rest);
    if (m === null) break;
    const mod = m[1].toLowerCase();
    if (mod === 'ctrl' || mod === 'control') ctrl = true;
    else if (mod === 'shift') shift = true;
    else alt = true;
    rest = m[2];
  }
  const key = [...rest].length === 1 ? rest : rest.toLowerCase();
  let bytes;
  if (ARROWS.has(key)) {
    const final = ARROWS.get(key);
    const mod = 1 + (shift ? 1 : 0) + (alt ? 2 : 0) + (ctrl ? 4 : 0);
    if (mod > 1) return `${ESC}[1;${mod}${final}`;
    return appCursor ? `${ESC}O${final}` : `${ESC}[${final}`;
  }
  const f = /^f([1-9]|1[0-2])$/.exec(key);
  if (f !== null) bytes = `${ESC}${FKEYS[Number(f[1]) - 1]}`;
  else if (key === 'tab' && shift) {
    bytes = `${ESC}[Z`;
    shift = false;
  } else if (NAMED.has(key)) bytes = NAMED.get(key);
  else if ([...key].length === 1) bytes = key;
  else return null;
  if (shift && /^[a-z]$/.test(bytes)) bytes = bytes.toUpperCase();
  if (ctrl) {
    if (bytes === ' ' || bytes === '@' || bytes === '2') bytes = '\0';
    else if (/^[a-z[\\\]^_]$/i.test(bytes)) bytes = String.fromCharCode(bytes.toUpperCase().charCodeAt(0) & 0x1f);
    else if (bytes === '?') bytes = '\x7f';
    else if (bytes.length !== 1 || bytes === '\r' || bytes === '\t' || bytes === ESC || bytes === '\x7f') {
      // ctrl+enter and friends: no distinct legacy encoding; send the key itself.
    } else return null;
  }
  return alt ? ESC + bytes : bytes;
}

/**
 * All keys encoded, or the first bad name. herdr.md §1: every key is validated before any is
 * sent, so a bad key leaves the pane untouched.
 */
export function encodeKeys(names, appCursor = false) {
  const out = [];
  for (const name of names) {
    const bytes = typeof name === 'string' ? encodeKey(name, appCursor) : null;
    if (bytes === null) return { bad: String(name) };
    out.push(bytes);
  }
  return { bytes: out.join('') };
}
