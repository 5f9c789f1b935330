import type { Options } from '../app/config/options.js';
import { prefixName } from '../app/config/prefix.js';
import { DEFAULT_DELIVERY, initialState, type Role } from '../protocol/index.js';
import { emptyLine } from './input/line-editor.js';
import { noColor } from './paint/no-color.js';
import { Store } from './state/store.js';

/** Until the profiles are read (app.tsx), the band names each agent by its command's program. */
function provisionalName(role: Role, options: Options): string {
  const line = role === 'planner' ? options.planner : options.builder;
  const profile = role === 'planner' ? options.plannerProfile : options.builderProfile;
  if (profile !== undefined) return profile.replace(/^.*\//, '').replace(/\.toml$/, '');
  if (line === undefined) return options.demo ? 'sim' : '…';
  return (line.trim().split(/\s+/)[0] ?? '…').replace(/^.*\//, '');
}

/** A relay view's store before its run opens: the agents named by their commands, `starting`; the goal prompt open when no goal is `given`. */
export function firstStore(options: Options, env: NodeJS.ProcessEnv, given: boolean): Store {
  const relay = initialState({
    maxRounds: options.maxRounds,
    lang: options.lang,
    inlineRolePrompt: { planner: false, builder: false },
    delivery: DEFAULT_DELIVERY,
    runPath: '',
  });
  const agent = (role: Role) => ({ name: provisionalName(role, options), state: 'unknown' as const });
  return new Store({
    relay,
    agents: { planner: agent('planner'), builder: agent('builder') },
    focus: 'planner',
    memory: null,
    zoom: false,
    toasts: [],
    overlay: 'none',
    prompt: !given && options.resume === false ? emptyLine : null,
    promptError: null,
    scroll: null,
    armed: false,
    confirmQuit: false,
    prefix: prefixName(options.prefix),
    color: !noColor(env),
  });
}
