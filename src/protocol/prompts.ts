import { formatHeader } from './header.js';
import type { Lang, Role } from './roles.js';

const ROLE_PROMPTS: Record<Lang, Record<Role, string>> = {
  es: {
    planner: [
      '# relevo: planner',
      'Eres la planificadora. Parte el objetivo en pasos pequeños que se puedan comprobar, y no toques el código tú misma.',
      'Cada vez que tengas listo el siguiente paso, cierra la respuesta con un bloque <handoff> dirigido a la constructora, cerrado con </handoff>.',
      'Cuando el objetivo se haya cumplido, responde con un bloque <done> que lleve un resumen breve, cerrado con </done>.',
      'Un mensaje cuya primera línea es "[relevo ronda N · de builder]" es el informe de la constructora: léelo y decide el paso siguiente.',
    ].join('\n'),
    builder: [
      '# relevo: builder',
      'Eres la constructora. Haz exactamente el paso que recibes, ni más ni menos.',
      'Al terminar, cierra la respuesta con un bloque <handoff> que cuente qué hiciste, qué archivos tocaste, cómo salieron los tests y qué dudas te quedan, cerrado con </handoff>.',
      'Un mensaje cuya primera línea es "[relevo ronda N · de planner]" es el paso que te manda la planificadora.',
    ].join('\n'),
  },
  en: {
    planner: [
      '# relevo: planner',
      'You are the planner. Break the goal into small steps that can each be checked, and never edit code yourself.',
      'Whenever the next step is ready, end your reply with a <handoff> block addressed to the builder, closed by </handoff>.',
      'When the goal has been met, reply with a <done> block holding a short summary, closed by </done>.',
      'A message whose first line is "[relevo ronda N · de builder]" is the builder\'s report: read it and decide the next step.',
    ].join('\n'),
    builder: [
      '# relevo: builder',
      'You are the builder. Carry out exactly the step you receive, nothing more.',
      'When you finish, end your reply with a <handoff> block stating what you did, which files you touched, the test results and any doubts, closed by </handoff>.',
      'A message whose first line is "[relevo ronda N · de planner]" is the step the planner sends you.',
    ].join('\n'),
  },
};

const GOAL_LABEL: Record<Lang, string> = { es: 'Objetivo', en: 'Goal' };

export function rolePrompt(role: Role, lang: Lang): string {
  return ROLE_PROMPTS[lang][role];
}

/** Joins an optional role prompt (for agents without a system-prompt flag) and a message. */
function withPreamble(preamble: string | null, text: string): string {
  return preamble === null ? text : `${preamble}\n\n${text}`;
}

/** The first message of a run, to the planner: `Goal: …` (the role prompt opens it when inline). */
export function goalMessage(goal: string, lang: Lang, preamble: string | null): string {
  return withPreamble(preamble, `${GOAL_LABEL[lang]}: ${goal}`);
}

/** A relayed handoff: the round header as first line, then the body verbatim. */
export function relayMessage(round: number, from: Role, body: string, preamble: string | null): string {
  return withPreamble(preamble, `${formatHeader(round, from)}\n${body}`);
}

const NOTE_LABEL: Record<Lang, string> = { es: '[nota de la persona]', en: '[note from the person]' };

/** The label that opens a person's note (see withNote). */
export function noteLabel(lang: Lang): string {
  return NOTE_LABEL[lang];
}

/** A person's note after a handoff's text, as its own block: a blank line, the label, the note. */
export function withNote(text: string, note: string | null, lang: Lang): string {
  return note === null ? text : `${text}\n\n${NOTE_LABEL[lang]}\n${note}`;
}

const READ_FILE: Record<Lang, (path: string) => string> = {
  es: (path) => `Lee este handoff completo en ${path} y sigue como siempre.`,
  en: (path) => `Read this handoff in full at ${path} and go on as usual.`,
};

/** A handoff delivered as a file: the round header, then one line with the path of its HANDOFF.md. */
export function relayFileMessage(round: number, from: Role, path: string, lang: Lang, preamble: string | null): string {
  return withPreamble(preamble, `${formatHeader(round, from)}\n${READ_FILE[lang](path)}`);
}

/** Told to the receiver of a resumed message: the workspace moved since the checkpoint (`git diff --stat` lines). */
export function staleNotice(lang: Lang, diffStat: readonly string[]): string {
  const intro =
    lang === 'es'
      ? 'Aviso de relevo: el espacio de trabajo cambió desde que se escribió este handoff (git diff --stat contra su ancla):'
      : 'Note from relevo: the workspace changed since this handoff was written (git diff --stat against its anchor):';
  const stat =
    diffStat.length > 0
      ? diffStat.map((line) => `  ${line}`)
      : [lang === 'es' ? '  (sin cambios en archivos seguidos; HEAD se movió)' : '  (no tracked file changes; HEAD moved)'];
  return [intro, ...stat].join('\n');
}

/** Opens the first message to a planner restarted with its run: the goal, for context. */
export function resumeContext(lang: Lang, goal: string): string {
  const intro =
    lang === 'es'
      ? 'relevo se reinició; el objetivo de esta sesión, como contexto:'
      : "relevo was restarted; this run's goal, for context:";
  return `${intro}\n${GOAL_LABEL[lang]}: ${goal}`;
}

const LOST_GOAL: Record<Lang, string> = {
  es: 'se perdió con el diario de esta ejecución: sigue desde el último handoff',
  en: "lost with this run's journal: go on from the last handoff",
};

/** The goal of a run whose journal was rebuilt without it: what the planner reads after `Goal: `. */
export function lostGoal(lang: Lang): string {
  return LOST_GOAL[lang];
}

/** What a restarted agent is told when the turn was already its own before relevo stopped. */
export type ResumeNoticeInput = {
  readonly to: Role;
  readonly goal: string;
  /** The handoff it was working on, when there was one (else it was working on the goal). */
  readonly handoff?: { readonly round: number; readonly from: Role; readonly path: string };
  /** The agent itself was started again (its process had exited), not relevo. */
  readonly agentRestarted?: boolean;
  /** The agent's turn was stopped by its CLI's usage limit, which has reset. */
  readonly limitReset?: boolean;
};

export function resumeNotice(lang: Lang, n: ResumeNoticeInput, preamble: string | null): string {
  const goalLine = `${GOAL_LABEL[lang]}: ${n.goal}`;
  const h = n.handoff;
  const es = lang === 'es';
  const lines: string[] = [];
  const who = n.limitReset
    ? es
      ? 'El límite de uso de tu CLI detuvo tu turno (ya se restableció)'
      : "Your CLI's usage limit stopped your turn (it has reset)"
    : n.agentRestarted
      ? es
        ? 'relevo te reinició (tu proceso había terminado)'
        : 'relevo restarted you (your process had exited)'
      : es
        ? 'relevo se reinició'
        : 'relevo was restarted';
  if (h === undefined) {
    lines.push(
      es
        ? `${who} mientras trabajabas en el objetivo de abajo. Si no habías terminado, termina ahora; en cualquier caso cierra tu respuesta con el <handoff> del paso siguiente.`
        : `${who} while you were working on the goal below. If you had not finished, finish now; either way end your reply with the <handoff> for the next step.`,
      goalLine,
    );
  } else {
    const from = es ? (h.from === 'planner' ? 'la planificadora' : 'la constructora') : `the ${h.from}`;
    lines.push(
      es
        ? `${who} mientras trabajabas en la ronda ${h.round} de ${from}. El handoff está en ${h.path}. Si no lo habías terminado, termínalo ahora; en cualquier caso cierra tu respuesta con tu <handoff>.`
        : `${who} while you were working on round ${h.round} from ${from}. The handoff is at ${h.path}. If you had not finished it, finish it now; either way end your reply with your <handoff>.`,
    );
    if (n.to === 'planner') lines.push(goalLine);
  }
  return withPreamble(preamble, lines.join('\n'));
}
