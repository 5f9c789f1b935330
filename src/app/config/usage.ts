import { DEMO_GOAL } from './demo.js';

/** `relevo-tui --help`: every option, command and exit code. */
export const USAGE = `Usage: relevo-tui [options]
       relevo-tui sim-agent [--role planner|builder] [--steps N] [--think-ms MS] [--misbehave KIND:TURN]
       relevo-tui runs [--state-dir DIR] [--json]
       relevo-tui show [RUN] [--state-dir DIR] [--json]
       relevo-tui doctor [options]

Runs a planner and a builder agent CLI side by side and relays <handoff> blocks between them.
With no --planner/--builder (nor relevo.toml naming them), the TUI offers the agent CLIs found on the
PATH (claude, codex, gemini, opencode, qwen) to pick from; --headless exits 2 saying what it found.

Options:
  --headless                 no UI: print one JSON line per relay event on stdout
  --demo                     run the built-in simulated planner and builder
  --goal TEXT                the goal for the planner (default with --demo: "${DEMO_GOAL}")
  --planner CMD              the planner's command line, e.g. "claude --model opus"
  --builder CMD              the builder's command line
  --planner-profile NAME     agent profile for the planner (default: from the command's name)
  --builder-profile NAME     agent profile for the builder (a shipped name or a .toml path)
  --max-rounds N             rounds before relevo pauses (default 10)
  --lang es|en               language of the role prompts (default from LANG)
  --state-dir DIR            where runs are journaled (default .relevo)
  --blocked-timeout SECONDS  pause when an agent waits on a prompt this long (default 600)
  --ready-timeout SECONDS    give up delivering when the peer stays busy this long (default 600)
  --stall-after DURATION     show a turn busy this long as stalled, e.g. 20m, 90s (default 20m)
  --prefix KEY               the TUI's prefix key, as C-x (default C-])
  --no-mouse                 leave the mouse to the terminal (by default a click focuses a pane and
                             the wheel scrolls it, or goes to an agent that asked for the mouse)
  --cols N, --rows N         size of each agent's terminal with --headless (default 120x40)
  --resume [RUN]             go on with an interrupted or paused run (default: the latest)
  --deliver auto|file|inline how handoffs are typed: auto (default) types a handoff over
                             --deliver-max-bytes (4096) or --deliver-max-lines (60) as the
                             path of its HANDOFF.md; file always does; inline never does
  --config FILE              settings file (default: relevo.toml in the working directory, when
                             present): the flags' names in snake_case; a flag on the command line wins
  --tmux                     drive agents already running in tmux panes: --planner-pane and
                             --builder-pane name them (%3, or session:window.pane)
  --tmux-launch              start both agents in a new tmux window (a new session outside tmux)
  --tmux-socket NAME         the tmux server to use, as tmux -L NAME (default: the current one)
  --herdr                    drive agents already running in Herdr panes: --planner-pane and
                             --builder-pane name them (w1:p1)
  --herdr-launch             start both agents in two new panes of the current Herdr workspace
  --memory                   store each round's handoff summary and the <done> summary in
                             mnemosyne (bank named after the project), when it is installed
  -h, --help                 this help
  -V, --version              the version

Commands:
  runs                       list the runs in the state dir, newest first (id, start, rounds, state, goal)
  show [RUN]                 print a run's handoffs in order with their status, and its <done> summary
  doctor [options]           check the agents these options (or relevo.toml) name: binary, version
                             against the tested range, profile, reply sources; exit 1 on a problem
  schema                     print the JSON Schema of relevo.toml (for editors; see relevo.example.toml)
  completion bash|zsh|fish   print a shell completion script (flags, commands, their values)

Keys in the TUI (the prefix, C-] unless --prefix says otherwise, then a key; ? lists them):
  o or Tab  focus the other pane      z  zoom the focused pane      p  pause the relay
  r  resume (after an agent exited: start it again)   g  goal prompt (after done: the next goal)
  n  a note for the next handoff to an agent           e  edit the pending handoff (while paused)
  s  step mode      [  copy mode (/ ? n N search, v select, y copy)      h  history
  ?  help           q  quit
  Everything else goes to the focused agent. The mouse: a click focuses a pane, the wheel scrolls
  it (an agent that asked for the mouse gets its events); --no-mouse turns that off.

Files and environment:
  relevo.toml                the project's settings (relevo.example.toml shows them all)
  .relevo/runs/<run>/        each run: events.jsonl (the journal), <role>/checkpoints/<n>/ (each
                             handoff: handoff.json, HANDOFF.md, offer.json, ack.json), lock
  NO_COLOR                   set: relevo's chrome has no colours (the agents' screens are theirs)
  VISUAL, EDITOR             the editor the pending handoff opens in (else vi)

Exit codes:
  0  done
  2  bad usage or config (one line on stderr)
  3  paused: the reason on stderr and in the journal; also on SIGINT, SIGTERM or SIGHUP (a closed
     terminal) and, with --headless, when stdout's reader goes away (| head): the pause is journaled
     (paused: user, the signal as its detail) and the agents relevo started are stopped, whatever
     they started too. tmux and Herdr agents live on; the last line says where. --resume goes on.
  1  an unexpected error
  Killed (SIGKILL, 137): the journal stays consistent; agents left running are stopped by the next
  relevo-tui in the same state dir (a new run, --resume, or relevo-tui runs), which says so.
`;
