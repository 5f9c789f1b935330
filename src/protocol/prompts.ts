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
