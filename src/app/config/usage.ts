import { DEMO_GOAL } from './demo.js';

// The help texts: written as terms and sentences, laid out here so every line fits HELP_COLUMNS.

/** Every line of a help text fits a terminal this wide. */
export const HELP_COLUMNS = 80;

/** `text` broken at spaces into lines of at most `width` columns (a longer word stands on its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** `lead` then `text`, its further lines hanging under where `lead` ends. */
function hang(lead: string, text: string): string[] {
  const [first, ...rest] = wrap(text, HELP_COLUMNS - lead.length);
  return [`${lead}${first}`.trimEnd(), ...rest.map((line) => `${' '.repeat(lead.length)}${line}`)];
}

/** Terms and their descriptions, each description from `column` on (under its term when the term is wider). */
function table(rows: readonly (readonly [string, string])[], column: number): string[] {
  return rows.flatMap(([term, text]) =>
    term.length + 4 <= column ? hang(`  ${term}`.padEnd(column), text) : [`  ${term}`, ...hang(' '.repeat(column), text)],
  );
}

/** A usage line: `Usage: ` for the first, aligned under it for the others; arguments that do not fit hang after the command. */
function usageLines(forms: readonly Form[]): string[] {
  return forms.flatMap(([command, args], i) => hang(`${i === 0 ? 'Usage:' : '      '} ${command} `, args));
}

const text = (...blocks: (string | readonly string[])[]): string => `${blocks.flat().join('\n')}\n`;
const paragraph = (sentences: string): string[] => hang('', sentences);

type Form = readonly [command: string, args: string];
const RUNS: Form = ['relevo-tui runs', '[--state-dir DIR] [--json]'];
const SHOW: Form = ['relevo-tui show', '[RUN] [--state-dir DIR] [--json]'];
const DOCTOR: Form = ['relevo-tui doctor', '[options]'];
const COMPLETION: Form = ['relevo-tui completion', 'bash|zsh|fish'];
const EXPLAIN: Form = ['relevo-tui explain', '--profile NAME [--json] SCREEN.txt…'];
const NEW: Form = ['relevo-tui new', '--goal TEXT [--branch NAME] [--base REV] [options]'];
const MERGE: Form = ['relevo-tui merge', 'NAME [--squash]'];
const RM: Form = ['relevo-tui rm', 'NAME [--force]'];
const SIM: Form = ['relevo-tui sim-agent', '[--role planner|builder] [--steps N] [--think-ms MS] [--misbehave KIND:TURN] [--record FILE]'];

/** The usage lines the commands print with an argument error (one line each). */
export const RUNS_USAGE = RUNS.join(' ');
export const SHOW_USAGE = SHOW.join(' ');
export const COMPLETION_USAGE = COMPLETION.join(' ');
export const EXPLAIN_USAGE = EXPLAIN.join(' ');
export const MERGE_USAGE = MERGE.join(' ');
export const RM_USAGE = RM.join(' ');

const COMMANDS: readonly (readonly [string, string])[] = [
  [
    'new --goal TEXT',
    'a relay in a git worktree of its own, on a new branch named from the goal, outside the repository; then its planner and builder start there',
  ],
  ['merge NAME', "rebase a relay's branch onto its base and fast-forward the base (--squash: one commit)"],
  ['rm NAME', "remove a relay's worktree when nothing of it is unmerged, uncommitted or untracked (--force: anyway; the branch stays)"],
  ['runs', 'list the runs in the state dir, newest first (id, start, rounds, state, goal)'],
  ['show [RUN]', "print a run's handoffs in order with their status, and its <done> summary"],
  [
    'doctor [options]',
    'check the agents a run with these options would start (named by the flags or relevo.toml, else the ones found on the PATH): binary, version against the tested range, profile, reply sources; with --host H, what the host has for a relay (git, tmux, relevo-tui, the agents there); exit 1 on a problem',
  ],
  [
    'explain --profile NAME SCREEN',
    "how a profile's detection rules read a saved screen: the state, the rule that decided, why each rule matched or not",
  ],
  ['schema', 'print the JSON Schema of relevo.toml (for editors; see relevo.example.toml)'],
  ['completion bash|zsh|fish', 'print a shell completion script (flags, commands, their values, run ids)'],
  ['sim-agent', 'the built-in simulated agent that --demo runs'],
];

const OPTIONS: readonly (readonly [string, string])[] = [
  ['--headless', 'no UI: print one JSON line per relay event on stdout'],
  ['--demo', 'run the built-in simulated planner and builder'],
  ['--goal TEXT', `the goal for the planner (default with --demo: "${DEMO_GOAL}")`],
  ['--planner CMD', 'the planner\'s command line, e.g. "claude --model opus"'],
  ['--builder CMD', "the builder's command line"],
  ['--planner-profile NAME', "agent profile for the planner (default: from the command's name)"],
  ['--builder-profile NAME', 'agent profile for the builder (a shipped name or a .toml path)'],
  ['--max-rounds N', 'rounds before relevo pauses (default 10)'],
  ['--lang es|en', 'language of the role prompts (default from LANG)'],
  ['--state-dir DIR', 'where runs are journaled (default .relevo)'],
  ['--blocked-timeout SECONDS', 'pause when an agent waits on a prompt this long (default 600)'],
  ['--ready-timeout SECONDS', 'give up delivering when the peer stays busy this long (default 600)'],
  ['--stall-after DURATION', 'show a turn busy this long as stalled, e.g. 20m, 90s (default 20m)'],
  ['--prefix KEY', "the TUI's prefix key, as C-x (default C-])"],
  [
    '--no-mouse',
    'leave the mouse to the terminal (by default a click focuses a pane, a drag copies, the wheel scrolls the pane under it, or each goes to an agent that asked for the mouse)',
  ],
  ['--cols N, --rows N', "size of each agent's terminal with --headless (default 120x40; never below its profile's minimum)"],
  ['--resume [RUN]', 'go on with an interrupted or paused run (default: the latest)'],
  ['--resume --all', 'go on with every relay of the repository that is not done, in one relevo'],
  ['--max-starting N', 'relays whose agents may be starting at once (default 2)'],
  [
    '--host DEST',
    "run the agents on an ssh destination (user@host or a ~/.ssh/config alias), in tmux there, the relay's worktree pushed there with git",
  ],
  ['--ssh-command CMD', 'the ssh program and its options for every connection (default $RELEVO_SSH_COMMAND, else ssh)'],
  [
    '--deliver auto|file|inline',
    'how handoffs are typed: auto (default) types a handoff over --deliver-max-bytes (4096) or --deliver-max-lines (60) as the path of its HANDOFF.md; file always does; inline never does',
  ],
  [
    '--config FILE',
    "settings file (default: relevo.toml in the working directory, when present): the flags' names in snake_case; a flag on the command line wins",
  ],
  ['--tmux', 'drive agents already running in tmux panes: --planner-pane and --builder-pane name them (%3, or session:window.pane)'],
  ['--tmux-launch', 'start both agents in a new tmux window (a new session outside tmux)'],
  ['--tmux-socket NAME', 'the tmux server to use, as tmux -L NAME (default: the current one)'],
  ['--herdr', 'drive agents already running in Herdr panes: --planner-pane and --builder-pane name them (w1:p1)'],
  ['--herdr-launch', 'start both agents in two new panes of the current Herdr workspace'],
  [
    '--memory',
    "store each round's handoff summary and the <done> summary in mnemosyne (bank named after the project), when it is installed",
  ],
  ['-h, --help', "this help (after a command: that command's)"],
  ['-V, --version', 'the version'],
];

const KEYS: readonly (readonly [string, string])[] = [
  ['o or Tab', 'focus the other pane'],
  ['z', 'zoom the focused pane'],
  ['p', 'pause the relay'],
  ['r', 'resume (after an agent exited: start it again)'],
  ['g', 'goal prompt (after done: the next goal)'],
  ['n', 'a note for the next handoff to an agent'],
  ['e', 'edit the pending handoff (while paused)'],
  ['s', 'step mode'],
  ['[', 'copy mode (/ ? n N search, v select, y copy)'],
  ['h', 'history'],
  ['w', 'the dashboard of every relay'],
  ['c', 'a new relay (a worktree of its own)'],
  ['?', 'help'],
  ['q', 'quit'],
];

const FILES: readonly (readonly [string, string])[] = [
  ['relevo.toml', "the project's settings (relevo.example.toml shows them all)"],
  [
    '.relevo/runs/<run>/',
    'each run: events.jsonl (the journal), <role>/checkpoints/<n>/ (each handoff: handoff.json, HANDOFF.md, offer.json, ack.json), lock/ (who holds the run: the highest <n>.json)',
  ],
  ['.relevo/agents.json', "the agents picked last time (the picker's default)"],
  ['NO_COLOR', "set: relevo's chrome has no colours (the agents' screens are theirs)"],
  ['VISUAL, EDITOR', 'the editor the pending handoff opens in (else vi)'],
];

const EXITS: readonly (readonly [string, string])[] = [
  ['0', 'done'],
  ['2', 'bad usage or config (one line on stderr)'],
  [
    '3',
    "paused: the reason on stderr and in the journal; also on SIGINT, SIGTERM or SIGHUP (a closed terminal) and, with --headless, when stdout's reader goes away (| head): the pause is journaled (paused: user, the signal as its detail) and the agents relevo started are stopped, whatever they started too. tmux and Herdr agents live on; the last line says where. --resume goes on.",
  ],
  ['1', 'an unexpected error'],
];

/** `relevo-tui --help`: every option, command and exit code. */
export const USAGE = text(
  usageLines([['relevo-tui', '[options]'], NEW, MERGE, RM, RUNS, SHOW, DOCTOR, EXPLAIN, SIM]),
  '',
  paragraph('Runs a planner and a builder agent CLI side by side and relays <handoff> blocks between them.'),
  paragraph(
    'With no --planner/--builder (nor relevo.toml naming them), the TUI offers the agent CLIs found on the PATH (claude, codex, copilot, gemini, opencode, qwen) to pick from; --headless exits 2 saying what it found.',
  ),
  '',
  'Options:',
  table(OPTIONS, 29),
  '',
  'Commands (each with -h for its help):',
  table(COMMANDS, 29),
  '',
  paragraph('Keys in the TUI (the prefix, C-] unless --prefix says otherwise, then a key):'),
  table(KEYS, 12),
  hang(
    '  ',
    'Everything else goes to the focused agent. The mouse: a click focuses a pane, a drag selects and copies, the wheel scrolls the pane under it (an agent that asked for the mouse gets its events); --no-mouse turns that off.',
  ),
  '',
  'Files and environment:',
  table(FILES, 29),
  '',
  'Exit codes:',
  table(EXITS, 5),
  hang(
    '  ',
    'Killed (SIGKILL, 137): the journal stays consistent; agents left running are stopped by the next relevo-tui in the same state dir (a new run, --resume, or relevo-tui runs), which says so.',
  ),
);

const STATE_DIR: readonly [string, string] = ['--state-dir DIR', 'where runs are journaled (default .relevo)'];
const JSON_FLAG = (what: string): readonly [string, string] => ['--json', `${what} as JSON on one line`];
const HELP_FLAG: readonly [string, string] = ['-h, --help', 'this help'];

/** `relevo-tui COMMAND --help`, for each command a person runs. */
export const COMMAND_HELP: ReadonlyMap<string, string> = new Map(
  Object.entries({
    new: text(
      usageLines([NEW]),
      '',
      paragraph(
        "Makes a relay: a git worktree on a new branch (relevo/ and the goal's first words; -2, -3… when taken), outside the repository (beside it in <repo>.relevo/, or in worktrees_dir), then starts the planner and the builder there. Its runs are journaled in the main repository's state dir. The options are a run's (see relevo-tui --help); with --headless each JSON line names the relay.",
      ),
      paragraph(
        "Before the agents start, [worktree] copy files are copied in and [worktree] setup runs there (output in the run's setup.log); a failed setup pauses the relay (setup_failed) and --resume runs it again. The agents get RELEVO_RELAY (the relay's name) and RELEVO_PORT (the first of 10 ports no other live relay holds).",
      ),
      '',
      table(
        [
          ['--branch NAME', 'the branch to make (default from the goal)'],
          ['--base REV', "what it starts from (default the main checkout's branch)"],
          ['--worktrees-dir DIR', 'where the worktree goes'],
          ['--host DEST', 'make the worktree and run the agents on an ssh destination'],
          ['--setup CMD', 'run in the worktree before the agents start'],
          ['--copy FILE', 'copy FILE of the repository into the worktree (repeatable)'],
          HELP_FLAG,
        ],
        24,
      ),
    ),
    merge: text(
      usageLines([MERGE]),
      '',
      paragraph(
        "Rebases the relay's branch onto its base in the relay's worktree, then fast-forwards the base to it (--squash: one commit on the base). Refused in one line, nothing changed, when the base's checkout or the worktree has uncommitted changes, when the rebase conflicts (it is aborted), or while the relay is working.",
      ),
      '',
      table([['--squash', 'one commit on the base'], STATE_DIR, HELP_FLAG], 20),
    ),
    rm: text(
      usageLines([RM]),
      '',
      paragraph(
        "Removes the relay's worktree (git worktree remove, then prune) when its branch has no commit its base lacks and the worktree no uncommitted or untracked file; otherwise refuses and lists them. The branch is deleted only when merged. Refused while the relay is working.",
      ),
      '',
      table([['--force', 'remove the worktree anyway; the branch is kept'], STATE_DIR, HELP_FLAG], 20),
    ),
    runs: text(
      usageLines([RUNS]),
      '',
      paragraph(
        'Lists the runs in the state dir, newest first: id, start, rounds, state (done, paused and why, running, interrupted), goal.',
      ),
      '',
      table([STATE_DIR, JSON_FLAG('the runs'), HELP_FLAG], 20),
    ),
    show: text(
      usageLines([SHOW]),
      '',
      paragraph("Prints a run's handoffs in order, each under its round header with its status, and the run's <done> summary."),
      paragraph('RUN is a run id as relevo-tui runs lists it (default: the latest run).'),
      '',
      table([STATE_DIR, JSON_FLAG('the run and its handoffs'), HELP_FLAG], 20),
    ),
    doctor: text(
      usageLines([DOCTOR]),
      '',
      paragraph(
        'Checks the agents a run with these options would start, and says why those: named by the flags or relevo.toml, else the agents the picker would offer (the ones picked last time, or the first found on the PATH). For each: the binary, its version against the tested range, the profile and how it types, where its replies would come from.',
      ),
      paragraph(
        "With --host H the host is asked through the ssh a run uses (--ssh-command, RELEVO_SSH_COMMAND): the PATH ssh gives, git, tmux and relevo-tui there with their versions, how the agents' tmux server outlives the ssh session (systemd-run --user, else setsid), the bare repository a relay pushes to; each agent's binary and version are read on the host.",
      ),
      paragraph(
        "The options are a run's (see relevo-tui --help). Exit 0 when all is fine, 1 with one line per problem, 2 for bad usage or a host out of reach.",
      ),
    ),
    explain: text(
      usageLines([EXPLAIN]),
      '',
      paragraph(
        "Reads saved screens through a profile's detection rules and prints, for each, the state, the rule that decided it (or why none did), then every rule in the profile's order: matched or not, why, and the text it saw.",
      ),
      paragraph(
        "SCREEN.txt is the screen's rows (tmux capture-pane -p, or - for stdin), or a header first: title: TEXT, osc N: PAYLOAD, rule: ID (the rule that must decide it), then a --- line and the rows. For a live pane, the stalled lines of a run's journal (events.jsonl) carry the same explanation as JSON.",
      ),
      paragraph("Exit 0; 1 when a header's rule: names another rule than the one that decided; 2 for bad usage."),
      '',
      table(
        [['--profile NAME', 'a shipped profile (claude, codex, …) or a path to a .toml file'], JSON_FLAG('each explanation'), HELP_FLAG],
        20,
      ),
    ),
    schema: text(
      usageLines([['relevo-tui schema', '']]),
      '',
      paragraph(
        "Prints the JSON Schema of relevo.toml, for editors: relevo-tui schema > relevo.schema.json, then #:schema ./relevo.schema.json as the file's first line.",
      ),
    ),
    completion: text(
      usageLines([COMPLETION]),
      '',
      paragraph('Prints a shell completion script: the commands, every flag, the values relevo knows, and run ids (bash).'),
      '',
      table(
        [
          ['bash', 'source it, or put it in ~/.local/share/bash-completion/completions/relevo-tui'],
          ['zsh', 'put it on your $fpath as _relevo-tui'],
          ['fish', 'put it in ~/.config/fish/completions/relevo-tui.fish'],
        ],
        8,
      ),
    ),
    'sim-agent': text(
      usageLines([SIM]),
      '',
      paragraph(
        'The built-in simulated agent that --demo runs as the planner and the builder: it answers each message with a scripted <handoff> after --think-ms, and --misbehave KIND:TURN makes it misbehave on that turn (for tests). --record FILE appends to FILE, as JSON lines, every message it receives ({"text": …}) and every <handoff> or <done> body it prints at the end of a turn ({"handoff": …}, {"done": …}).',
      ),
    ),
  }),
);
