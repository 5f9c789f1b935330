import type { z } from 'zod';

/** One line of a JSON-lines text: its value when it parses and fits the schema, else why not. */
export type JsonLine<T> =
  | { readonly ok: true; readonly line: number; readonly value: T }
  | { readonly ok: false; readonly line: number; readonly text: string; readonly problem: 'json' }
  | {
      readonly ok: false;
      readonly line: number;
      readonly text: string;
      readonly problem: 'schema';
      readonly issues: readonly z.core.$ZodIssue[];
    };

export type JsonLinesOptions = {
  /**
   * Only lines ended by a newline count. A writer appends a line and its newline in one write, so a
   * last line without one was cut short (a kill mid-write) and is left out, even when it parses.
   * Off for texts whose last line may lack a newline by design (a hook's message, a transcript).
   */
  readonly wholeLinesOnly?: boolean;
};

/** The length of `text` up to and including its last newline: where its whole lines end. */
export const wholeLinesLength = (text: string): number => text.lastIndexOf('\n') + 1;

/**
 * Each non-blank line of `text`, in order (numbered from 1), parsed as JSON and checked against
 * `schema`. A line that is not JSON (torn by a kill, garbled) or does not fit is reported, never thrown.
 */
export function* jsonLines<S extends z.ZodType>(text: string, schema: S, options: JsonLinesOptions = {}): Generator<JsonLine<z.output<S>>> {
  const body = options.wholeLinesOnly ? text.slice(0, wholeLinesLength(text)) : text;
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      yield { ok: false, line: i + 1, text: raw, problem: 'json' };
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) yield { ok: true, line: i + 1, value: parsed.data };
    else yield { ok: false, line: i + 1, text: raw, problem: 'schema', issues: parsed.error.issues };
  }
}

/** The values of the lines of `text` that parse and fit `schema`; the others are skipped. */
export function parseJsonLines<S extends z.ZodType>(text: string, schema: S, options: JsonLinesOptions = {}): z.output<S>[] {
  const values: z.output<S>[] = [];
  for (const line of jsonLines(text, schema, options)) if (line.ok) values.push(line.value);
  return values;
}
