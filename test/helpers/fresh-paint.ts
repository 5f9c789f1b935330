import { difference, MARGIN, outside, PersonTerminal } from './screen-oracle.js';

/**
 * What the person's terminal shows against a fresh paint at its size (`paint` draws one on the
 * terminal it is given): where they differ, or where the fresh paint reached past the edge; null when equal.
 */
export async function againstFresh(person: PersonTerminal, paint: (fresh: PersonTerminal) => { dispose(): void }): Promise<string | null> {
  await person.parse();
  const fresh = new PersonTerminal(person.columns, person.rows, MARGIN);
  const painted = paint(fresh);
  await fresh.parse();
  const wrong = outside(fresh) ?? difference(person.screen, fresh.screen);
  painted.dispose();
  fresh.screen.dispose();
  return wrong;
}
