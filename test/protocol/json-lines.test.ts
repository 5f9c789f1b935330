import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonLines, parseJsonLines, wholeLinesLength } from '../../src/protocol/json-lines.js';

const entry = z.object({ n: z.number() });

describe('JSON lines', () => {
  it('parses each non-blank line against the schema and reports the others with their line number', () => {
    const text = '{"n":1}\n\n  \nnot json\n{"n":"two"}\n{"n":3}\n';
    const lines = [...jsonLines(text, entry)];
    expect(lines.map((l) => (l.ok ? ['ok', l.line, l.value.n] : [l.problem, l.line, l.text]))).toEqual([
      ['ok', 1, 1],
      ['json', 4, 'not json'],
      ['schema', 5, '{"n":"two"}'],
      ['ok', 6, 3],
    ]);
    const bad = lines[2]!;
    expect(bad.ok === false && bad.problem === 'schema' ? bad.issues[0]?.path : null).toEqual(['n']);
    expect(parseJsonLines(text, entry)).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it('keeps a last line without a newline unless only whole lines count', () => {
    expect(parseJsonLines('{"n":1}\n{"n":2}', entry)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(parseJsonLines('{"n":1}\n{"n":2}', entry, { wholeLinesOnly: true })).toEqual([{ n: 1 }]);
    expect(parseJsonLines('{"n":1}\n{"n', entry)).toEqual([{ n: 1 }]);
    expect(wholeLinesLength('{"n":1}\n{"n')).toBe(8);
    expect(wholeLinesLength('{"n":1}\n')).toBe(8);
    expect(wholeLinesLength('{"n')).toBe(0);
  });
});
