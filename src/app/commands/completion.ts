import { FLAG_NAMES } from '../config/options.js';
import { shippedProfileNames } from '../config/profiles.js';
import { COMMAND_HELP } from '../config/usage.js';

/** The shells `relevo-tui completion SHELL` writes a script for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The commands, as `--help` lists them. */
const SUBCOMMANDS = [...COMMAND_HELP.keys()];

/** What follows a flag that takes a value, when relevo knows the choices; `file`/`dir` complete paths. */
function valuesOf(flag: string): readonly string[] | 'file' | 'dir' | 'any' | null {
  switch (flag) {
    case 'lang':
      return ['es', 'en'];
    case 'deliver':
      return ['auto', 'file', 'inline'];
    case 'planner-profile':
    case 'builder-profile':
      return shippedProfileNames();
    case 'config':
      return 'file';
    case 'state-dir':
      return 'dir';
    case 'goal':
    case 'planner':
    case 'builder':
    case 'max-rounds':
    case 'blocked-timeout':
    case 'ready-timeout':
    case 'stall-after':
    case 'prefix':
    case 'cols':
    case 'rows':
    case 'deliver-max-bytes':
    case 'deliver-max-lines':
    case 'tmux-socket':
    case 'planner-pane':
    case 'builder-pane':
      return 'any';
    default:
      return null;
  }
}

const flags = () => FLAG_NAMES.map((f) => `--${f}`);
const withValues = () => FLAG_NAMES.filter((f) => valuesOf(f) !== null);

function bash(): string {
  const cases = withValues()
    .map((f) => {
      const v = valuesOf(f);
      const action =
        v === 'file'
          ? 'COMPREPLY=($(compgen -f -- "$cur"))'
          : v === 'dir'
            ? 'COMPREPLY=($(compgen -d -- "$cur"))'
            : Array.isArray(v)
              ? `COMPREPLY=($(compgen -W "${v.join(' ')}" -- "$cur"))`
              : 'COMPREPLY=()';
      return `    --${f}) ${action}; return ;;`;
    })
    .join('\n');
  return `# relevo-tui completion for bash: source it, or put it in ~/.local/share/bash-completion/completions/relevo-tui
# The run ids in the state dir: .relevo, or the one a --state-dir earlier on the line names.
_relevo_tui_runs() {
  local dir=.relevo i word d runs=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if [[ $word == --state-dir=?* ]]; then
      dir="\${word#--state-dir=}"
    elif [[ $word == --state-dir ]]; then
      ((i++))
      [[ \${COMP_WORDS[i]} == = ]] && ((i++))
      ((i < COMP_CWORD)) && dir="\${COMP_WORDS[i]}"
    fi
  done
  # As typed: quotes around it, an escaped space, a leading ~/.
  case "$dir" in \\'*\\' | \\"*\\") dir="\${dir:1:\${#dir}-2}" ;; esac
  dir="\${dir//\\\\ / }"
  [[ $dir == "~/"* ]] && dir="$HOME/\${dir:2}"
  for d in "$dir"/runs/*/; do
    [[ -d $d ]] || continue
    d="\${d%/}"
    runs+=("\${d##*/}")
  done
  COMPREPLY=($(compgen -W "\${runs[*]}" -- "$cur"))
}
_relevo_tui() {
  local cur prev
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
${cases}
    completion) COMPREPLY=($(compgen -W "${SHELLS.join(' ')}" -- "$cur")); return ;;
  esac
  # The run of --resume RUN and show RUN.
  if [[ "$cur" != -* && ( $prev == --resume || ( \${COMP_WORDS[1]} == show && $COMP_CWORD -ge 2 ) ) ]]; then
    _relevo_tui_runs
    return
  fi
  if [[ $COMP_CWORD -eq 1 && "$cur" != -* ]]; then
    COMPREPLY=($(compgen -W "${SUBCOMMANDS.join(' ')}" -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -W "${flags().join(' ')}" -- "$cur"))
}
complete -F _relevo_tui relevo-tui
`;
}

function zsh(): string {
  const specs = FLAG_NAMES.map((f) => {
    const v = valuesOf(f);
    const value =
      v === null
        ? ''
        : v === 'file'
          ? ':file:_files'
          : v === 'dir'
            ? ':dir:_files -/'
            : Array.isArray(v)
              ? `:value:(${v.join(' ')})`
              : ':value:';
    return `    '--${f}${value}'`;
  }).join(' \\\n');
  return `#compdef relevo-tui
# relevo-tui completion for zsh: put it on your $fpath as _relevo-tui
_relevo-tui() {
  if (( CURRENT == 2 )) && [[ $words[CURRENT] != -* ]]; then
    _values 'command' ${SUBCOMMANDS.join(' ')}
    return
  fi
  _arguments \\
${specs}
}
_relevo-tui "$@"
`;
}

function fish(): string {
  const lines = FLAG_NAMES.map((f) => {
    const v = valuesOf(f);
    const takes = v === null ? '' : v === 'file' || v === 'dir' ? ' -r -F' : Array.isArray(v) ? ` -x -a '${v.join(' ')}'` : ' -x';
    return `complete -c relevo-tui -l ${f}${takes}`;
  });
  return `# relevo-tui completion for fish: put it in ~/.config/fish/completions/relevo-tui.fish
complete -c relevo-tui -f
complete -c relevo-tui -n __fish_use_subcommand -a '${SUBCOMMANDS.join(' ')}'
complete -c relevo-tui -n '__fish_seen_subcommand_from completion' -a '${SHELLS.join(' ')}'
${lines.join('\n')}
`;
}

/** The completion script for `shell`. */
export function completionScript(shell: Shell): string {
  return shell === 'bash' ? bash() : shell === 'zsh' ? zsh() : fish();
}
