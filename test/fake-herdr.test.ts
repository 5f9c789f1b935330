// Checks the fake herdr (test/helpers/fake-herdr/) against the contract of
// /work/shared/research/herdr.md: §6's table row by row, §1's conventions, §2's framing and
// §3's status behaviour, with real PTYs and relevo's simulator as the agent.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHerdr, type HerdrResult, runHerdr, startFakeHerdr } from './helpers/fake-herdr.js';
import { exists } from './helpers/procs.js';
import { sleep } from './helpers/until.js';

type Obj = Record<string, any>;

const REPO = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(REPO, 'bin', 'relevo-tui.js');

const PANE_REQUIRED = ['pane_id', 'terminal_id', 'workspace_id', 'tab_id', 'focused', 'agent_status', 'revision'];
const PANE_OPTIONAL = [
  'cwd',
  'foreground_cwd',
  'label',
  'agent',
  'title',
  'terminal_title',
  'display_agent',
  'tokens',
  'agent_session',
  'scroll',
];
const AGENT_EXTRA = ['name', 'state_change_seq', 'interactive_ready', 'launch_pending'];

/** herdr.md §1: success is one JSON line `{"id":"cli:<group>:<verb>","result":{"type":…}}` on stdout, exit 0. */
function ok(r: HerdrResult, command: string, type: string): Obj {
  expect({ exitCode: r.exitCode, stderr: r.stderr }).toEqual({ exitCode: 0, stderr: '' });
  const out = String(r.stdout);
  expect(out.split('\n')).toHaveLength(1); // execa strips the one final newline
  const json = JSON.parse(out) as Obj;
  expect(Object.keys(json).sort()).toEqual(['id', 'result']);
  expect(json.id).toBe(`cli:${command.replace(' ', ':')}`);
  expect(json.result.type).toBe(type);
  expectNoNulls(json);
  return json.result as Obj;
}

/** herdr.md §1: an operation error is `{"id","error":{"code","message"}}` on stderr, exit 1. */
function opError(r: HerdrResult, command: string, code: string, message?: string): void {
  expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 1, stdout: '' });
  const json = JSON.parse(String(r.stderr)) as Obj;
  expect(json).toEqual({ id: `cli:${command.replace(' ', ':')}`, error: { code, message: message ?? expect.any(String) } });
}

/** herdr.md §1: a usage error is plain text on stderr, exit 2. */
function usageError(r: HerdrResult): void {
  expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 2, stdout: '' });
  expect(String(r.stderr)).not.toBe('');
  expect(() => JSON.parse(String(r.stderr))).toThrow();
}

function expectNoNulls(value: unknown, path = '$'): void {
  expect(value, path).not.toBeNull();
  if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) expectNoNulls(v, `${path}.${k}`);
}

function expectPaneInfo(pane: Obj, extra: readonly string[] = []): void {
  for (const key of PANE_REQUIRED) expect(pane, key).toHaveProperty(key);
  for (const key of Object.keys(pane)) expect([...PANE_REQUIRED, ...PANE_OPTIONAL, ...extra]).toContain(key);
  expect(pane.terminal_id).toMatch(/^term_[0-9a-f]+$/);
  expect(pane.pane_id).toMatch(/^w\d+:p\d+$/);
  expect(pane.tab_id).toMatch(/^w\d+:t\d+$/);
  expect(typeof pane.revision).toBe('number');
}

let fh: FakeHerdr;
const herdr = (...args: string[]) => fh.herdr(...args);

/** A new pane (split of w1:p1) whose sh prompt is `> `, once that prompt is shown. */
async function newPane(...env: string[]): Promise<string> {
  const args = ['pane', 'split', 'w1:p1', '--direction', 'right', '--env', 'PS1=> '];
  for (const kv of env) args.push('--env', kv);
  const id = ok(await herdr(...args), 'pane split', 'pane_info').pane.pane_id as string;
  await waitLine(id, '^>$');
  return id;
}

/** `pane wait-output --regex`, which must succeed. */
async function waitLine(id: string, regex: string, source = 'recent'): Promise<Obj> {
  return ok(
    await herdr('pane', 'wait-output', id, '--regex', regex, '--source', source, '--timeout', '15000'),
    'pane wait-output',
    'output_matched',
  );
}

async function read(id: string, ...opts: string[]): Promise<string> {
  const r = await herdr('pane', 'read', id, ...opts);
  expect({ exitCode: r.exitCode, stderr: r.stderr }).toEqual({ exitCode: 0, stderr: '' });
  return String(r.stdout);
}

/** Reads with execa's final-newline stripping off, to see exactly what was printed. */
async function rawRead(id: string, ...opts: string[]): Promise<string> {
  const r = await execa(fh.bin, ['pane', 'read', id, ...opts], {
    env: fh.env,
    extendEnv: false,
    stripFinalNewline: false,
    stdin: 'ignore',
  });
  return r.stdout;
}

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist', 'cli.js'))) await execa('npm', ['run', 'build'], { cwd: REPO });
  fh = await startFakeHerdr();
});

afterAll(async () => {
  await fh?.stop();
});

describe('CLI conventions (herdr.md §1, §6.1, §6.3)', () => {
  it('--version prints `herdr 0.8.0`; FAKE_HERDR_VERSION overrides it', async () => {
    const r = await herdr('--version');
    expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual({ exitCode: 0, stdout: 'herdr 0.8.0', stderr: '' });
    const old = await runHerdr({ ...fh.env, FAKE_HERDR_VERSION: '0.7.5' }, ['--version']);
    expect(old.stdout).toBe('herdr 0.7.5');
  });

  it.each([
    [['pane', 'split', 'w1:p1']], // no --direction
    [['pane', 'split', 'w1:p1', '--direction', 'up']],
    [['pane', 'list', '--bogus']],
    [['pane', 'bogus']],
    [['bogus', 'list']],
    [['pane', 'get']],
    [['pane', 'read', 'w1:p1', '--lines', 'many']],
    [['pane', 'read', 'w1:p1', '--source', 'everything']],
    [['pane', 'wait-output', 'w1:p1', '--match', 'x', '--timeout', 'soon']],
    [['agent', 'wait', 'w1:p1', '--timeout', 'soon']],
    [['agent', 'wait', 'w1:p1', '--until', 'sleeping']],
    [['agent', 'prompt', 'w1:p1', 'hi', '--until', 'idle']], // --until without --wait
    [['agent', 'prompt', 'w1:p1', 'hi', '--timeout', '100']], // --timeout without --wait
    [['agent', 'prompt', 'w1:p1', 'one', 'two']], // the text is one argument
    [['agent', 'start', 'x', '--pane', 'w1:p1']], // no --kind
  ])('usage error → text on stderr, exit 2: %j', async (args) => {
    usageError(await herdr(...args));
  });

  it('no server → server_not_running on stderr, exit 1 (socket from HERDR_SOCKET_PATH, --session, XDG_CONFIG_HOME)', async () => {
    const gone = join(fh.dir, 'gone.sock');
    opError(await runHerdr({ ...fh.env, HERDR_SOCKET_PATH: gone }, ['pane', 'list']), 'pane list', 'server_not_running');
    const session = await runHerdr(fh.env, ['--session', 'other', 'agent', 'list']);
    opError(session, 'agent list', 'server_not_running');
    expect(String(session.stderr)).toContain(join(fh.env.XDG_CONFIG_HOME!, 'herdr', 'sessions', 'other', 'herdr.sock'));
    const { HERDR_SOCKET_PATH: _, ...noPath } = fh.env;
    const byDefault = await runHerdr(noPath, ['workspace', 'list']);
    opError(byDefault, 'workspace list', 'server_not_running');
    expect(String(byDefault.stderr)).toContain(join(fh.env.XDG_CONFIG_HOME!, 'herdr', 'herdr.sock'));
    // and the real socket answers
    ok(await herdr('workspace', 'list'), 'workspace list', 'workspace_list');
  });

  it('a server speaking another protocol → protocol_mismatch, exit 1', async () => {
    const other = await startFakeHerdr({ protocol: 19 });
    try {
      opError(await other.herdr('pane', 'list'), 'pane list', 'protocol_mismatch');
    } finally {
      await other.stop();
    }
  });
});

describe('socket framing (herdr.md §2)', () => {
  /** Sends raw bytes; resolves with everything received once the server closes the connection. */
  const exchange = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const sock = connect(fh.socket);
      let got = '';
      sock.setEncoding('utf8');
      sock.on('connect', () => sock.write(bytes));
      sock.on('data', (chunk: string) => (got += chunk));
      sock.on('end', () => resolve(got));
      sock.on('error', reject);
    });

  it('one request per connection, NDJSON, socket mode 0600', async () => {
    expect(statSync(fh.socket).mode & 0o777).toBe(0o600);
    expect(await exchange('{"id":"p1","method":"ping","params":{}}\n')).toBe(
      '{"id":"p1","result":{"type":"pong","version":"0.8.0","protocol":20}}\n',
    );
    const bad = JSON.parse(await exchange('this is not json\n')) as Obj;
    expect(bad).toEqual({ id: '', error: { code: 'invalid_request', message: expect.any(String) } });
    const unknown = JSON.parse(await exchange('{"id":"u","method":"no.such","params":{}}\n')) as Obj;
    expect(unknown).toEqual({ id: 'u', error: { code: 'invalid_request', message: expect.any(String) } });
  });

  it('pane.read result shape; recent_unwrapped on the wire', async () => {
    const res = (await fh.request(
      'pane.read',
      { pane_id: 'w1:p1', source: 'recent_unwrapped', lines: 1, format: 'text', strip_ansi: true },
      'r1',
    )) as Obj;
    expect(res).toEqual({
      id: 'r1',
      result: {
        type: 'pane_read',
        read: {
          pane_id: 'w1:p1',
          workspace_id: 'w1',
          tab_id: 'w1:t1',
          source: 'recent_unwrapped',
          format: 'text',
          text: expect.any(String),
          revision: expect.any(Number),
          truncated: expect.any(Boolean),
        },
      },
    });
  });
});

describe('records and IDs (herdr.md §1 "Listing", §6.2, §6.4)', () => {
  it('workspace list, tab list, pane list, pane get', async () => {
    const ws = ok(await herdr('workspace', 'list'), 'workspace list', 'workspace_list').workspaces as Obj[];
    expect(ws).toHaveLength(1);
    expect(Object.keys(ws[0]!).sort()).toEqual([
      'active_tab_id',
      'agent_status',
      'focused',
      'label',
      'number',
      'pane_count',
      'tab_count',
      'workspace_id',
    ]);
    expect(ws[0]).toMatchObject({
      workspace_id: 'w1',
      number: 1,
      focused: true,
      tab_count: 1,
      active_tab_id: 'w1:t1',
      agent_status: 'unknown',
    });
    const tabs = ok(await herdr('tab', 'list'), 'tab list', 'tab_list').tabs as Obj[];
    expect(tabs.map((t) => Object.keys(t).sort())).toEqual([
      ['agent_status', 'focused', 'label', 'number', 'pane_count', 'tab_id', 'workspace_id'],
    ]);
    expect(tabs[0]).toMatchObject({ tab_id: 'w1:t1', workspace_id: 'w1', number: 1, focused: true });
    const panes = ok(await herdr('pane', 'list', '--workspace', 'w1'), 'pane list', 'pane_list').panes as Obj[];
    expect(panes[0]).toMatchObject({ pane_id: 'w1:p1', workspace_id: 'w1', tab_id: 'w1:t1', focused: true, agent_status: 'unknown' });
    for (const p of panes) {
      expectPaneInfo(p);
      expect(p).not.toHaveProperty('agent'); // no agent → unknown and no `agent` field (§6.5)
    }
    const one = ok(await herdr('pane', 'get', 'w1:p1'), 'pane get', 'pane_info').pane as Obj;
    expectPaneInfo(one);
    expect(one.terminal_id).toBe(panes[0]!.terminal_id);
  });

  it('pane_not_found names the pane', async () => {
    opError(await herdr('pane', 'get', 'w1:p999'), 'pane get', 'pane_not_found', 'pane w1:p999 not found');
    opError(await herdr('pane', 'read', 'w1:p999'), 'pane read', 'pane_not_found', 'pane w1:p999 not found');
  });

  it('split leaves focus alone; close returns ok; IDs are never reused', async () => {
    const a = ok(await herdr('pane', 'split', '--pane', 'w1:p1', '--direction=down'), 'pane split', 'pane_info').pane as Obj;
    expectPaneInfo(a);
    expect(a).toMatchObject({ workspace_id: 'w1', tab_id: 'w1:t1', focused: false, agent_status: 'unknown' });
    expect(ok(await herdr('pane', 'get', 'w1:p1'), 'pane get', 'pane_info').pane.focused).toBe(true);
    const n = Number(String(a.pane_id).split(':p')[1]);
    expect(ok(await herdr('pane', 'close', a.pane_id), 'pane close', 'ok')).toEqual({ type: 'ok' });
    opError(await herdr('pane', 'get', a.pane_id), 'pane get', 'pane_not_found', `pane ${a.pane_id} not found`);
    const b = ok(await herdr('pane', 'split', 'w1:p1', '--direction', 'right'), 'pane split', 'pane_info').pane as Obj;
    expect(b.pane_id).toBe(`w1:p${n + 1}`);
    expect(b.terminal_id).not.toBe(a.terminal_id);
    const listed = ok(await herdr('pane', 'list'), 'pane list', 'pane_list').panes as Obj[];
    expect(listed.map((p) => p.pane_id)).not.toContain(a.pane_id);
    ok(await herdr('pane', 'close', b.pane_id), 'pane close', 'ok');
  });

  it('split honours --cwd and --env and sets the HERDR_* pane environment', async () => {
    const cwd = join(fh.dir, 'work dir');
    mkdirSync(cwd);
    const split = await herdr(
      'pane',
      'split',
      'w1:p1',
      '--direction',
      'right',
      '--cwd',
      cwd,
      '--env',
      'PS1=> ',
      '--env',
      'RELEVO_X=forty two',
    );
    const pane = ok(split, 'pane split', 'pane_info').pane as Obj;
    expect(pane.cwd).toBe(cwd);
    const id = pane.pane_id as string;
    await waitLine(id, '^>$');
    const show =
      'printf "%s|" "$RELEVO_X" "$HERDR_ENV" "$HERDR_PANE_ID" "$HERDR_TAB_ID" "$HERDR_WORKSPACE_ID" "$HERDR_SOCKET_PATH" "$HERDR_BIN_PATH" "$PWD"; echo END';
    await herdr('pane', 'run', id, show);
    // printf writes piecemeal: wait for the whole line
    const line = (await waitLine(id, '^forty two\\|.*\\|END$', 'recent-unwrapped')).matched_line as string;
    expect(line).toBe(`forty two|1|${id}|w1:t1|w1|${fh.socket}|${fh.bin}|${cwd}|END`);
    ok(await herdr('pane', 'close', id), 'pane close', 'ok');
  });
});

describe('pane I/O on a real PTY (herdr.md §1 "Reading output", "Sending text and keys", §6.6)', () => {
  let id: string;
  beforeAll(async () => {
    id = await newPane();
  });

  it('pane run joins its arguments, submits, and prints nothing', async () => {
    const r = await herdr('pane', 'run', id, 'printf', "'hello\\n'");
    expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const matched = await waitLine(id, '^hello$');
    expect(matched).toMatchObject({ pane_id: id, matched_line: 'hello', revision: expect.any(Number) });
    expect(matched.read).toMatchObject({ pane_id: id, source: 'recent', format: 'text' });
    await waitLine(id, '^>$');
  });

  it('reads each source; raw text without a trailing newline; --lines keeps the last N', async () => {
    const recent = "> printf 'hello\\n'\nhello\n>";
    expect(await rawRead(id)).toBe(recent); // default source recent, no added newline
    expect(await rawRead(id, '--source', 'recent-unwrapped')).toBe(recent);
    const visible = await rawRead(id, '--source', 'visible');
    expect(visible).toBe(recent + '\n'.repeat(24 - 3)); // the 24 screen rows
    expect(await rawRead(id, '--source=detection')).toBe(visible);
    expect(await rawRead(id, '--lines', '1')).toBe('>');
    expect(await rawRead(id, '--source=visible', '--lines=2')).toBe('\n');
    const res = (await fh.request('pane.read', { pane_id: id, source: 'recent', lines: 2, format: 'text', strip_ansi: true })) as Obj;
    expect(res.result.read).toMatchObject({ text: 'hello\n>', truncated: true });
  });

  it('recent keeps soft-wrapped rows apart; recent-unwrapped joins them', async () => {
    await herdr('pane', 'run', id, 'printf', "'%0100d\\n'", '0');
    await waitLine(id, '^0{20}$');
    await waitLine(id, '^>$');
    expect(await read(id, '--lines', '3')).toBe(`${'0'.repeat(80)}\n${'0'.repeat(20)}\n>`);
    expect(await read(id, '--source', 'recent-unwrapped', '--lines', '2')).toBe(`${'0'.repeat(100)}\n>`);
  });

  it('--format ansi keeps SGR; text strips it', async () => {
    await herdr('pane', 'run', id, 'printf', "'\\033[31mred\\033[0m\\n'");
    await waitLine(id, '^red$');
    await waitLine(id, '^>$');
    expect(await read(id, '--lines', '2')).toBe('red\n>');
    expect(await read(id, '--lines', '2', '--format', 'ansi')).toBe('\x1b[0;31mred\x1b[0m\n>');
  });

  it('send-text writes without submitting; send-keys enter submits; both print nothing', async () => {
    const other = await newPane();
    const text = await herdr('pane', 'send-text', other, 'echo', 'one', ' two');
    expect({ exitCode: text.exitCode, stdout: text.stdout, stderr: text.stderr }).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    await waitLine(other, '^> echo one  two$');
    await sleep(300); // nothing else comes: the line was not submitted
    expect(await read(other)).toBe('> echo one  two');
    const keys = await herdr('pane', 'send-keys', other, 'Enter');
    expect({ exitCode: keys.exitCode, stdout: keys.stdout, stderr: keys.stderr }).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    await waitLine(other, '^one two$');
    await waitLine(other, '^>$');
    expect(await read(other)).toBe('> echo one  two\none two\n>');

    // invalid_key: checked before any key is applied
    const before = ok(await herdr('pane', 'get', other), 'pane get', 'pane_info').pane.revision as number;
    opError(await herdr('pane', 'send-keys', other, 'x', 'no-such-key', 'enter'), 'pane send-keys', 'invalid_key');
    await sleep(400);
    expect(ok(await herdr('pane', 'get', other), 'pane get', 'pane_info').pane.revision).toBe(before);
    expect(await read(other)).toBe('> echo one  two\none two\n>');

    // C-c is ctrl+c: interrupts a foreground command
    await herdr('pane', 'run', other, 'sleep', '30');
    await expect.poll(async () => foregroundNames(other), { timeout: 10_000 }).toContain('sleep');
    expect((await herdr('pane', 'send-keys', other, 'C-c')).exitCode).toBe(0);
    await expect.poll(async () => foregroundNames(other), { timeout: 10_000 }).toEqual(['sh']);
    ok(await herdr('pane', 'close', other), 'pane close', 'ok');
  });

  it('wait-output times out with `timeout`, exit 1; a bad regex is invalid_regex', async () => {
    opError(await herdr('pane', 'wait-output', id, '--match', 'never printed', '--timeout', '200'), 'pane wait-output', 'timeout');
    opError(await herdr('pane', 'wait-output', id, '--regex', '(', '--timeout', '200'), 'pane wait-output', 'invalid_regex');
  });
});

async function foregroundNames(id: string): Promise<string[]> {
  const info = ok(await herdr('pane', 'process-info', '--pane', id), 'pane process-info', 'pane_process_info');
  return (info.foreground_processes as Obj[]).map((p) => p.name as string);
}

describe('agents: relevo sim-agent in a pane (herdr.md §1 "Waiting", §3, §6.5)', () => {
  let id: string;
  beforeAll(async () => {
    id = await newPane();
  });

  it('no agent: agent prompt → agent_not_ready; unknown target → agent_not_found', async () => {
    opError(await herdr('agent', 'prompt', id, 'hello'), 'agent prompt', 'agent_not_ready');
    opError(await herdr('agent', 'get', 'nobody'), 'agent get', 'agent_not_found');
    expect(ok(await herdr('agent', 'list'), 'agent list', 'agent_list').agents).toEqual([]);
  });

  it('the sim is detected as claude, idle', async () => {
    await herdr('pane', 'run', id, process.execPath, BIN, 'sim-agent', '--role', 'builder', '--think-ms', '300');
    ok(await herdr('agent', 'wait', id, '--until', 'idle', '--timeout', '20000'), 'agent wait', 'agent_info');
    // Detected (idle by the known-agent fallback) may come before the sim has drawn its prompt.
    await expect
      .poll(async () => ok(await herdr('agent', 'get', id), 'agent get', 'agent_info').agent.interactive_ready, { timeout: 20_000 })
      .toBe(true);
    const agent = ok(await herdr('agent', 'get', id), 'agent get', 'agent_info').agent as Obj;
    expectPaneInfo(agent, AGENT_EXTRA);
    expect(agent).toMatchObject({
      pane_id: id,
      agent: 'claude',
      agent_status: 'idle',
      interactive_ready: true,
      state_change_seq: expect.any(Number),
    });
    const listed = ok(await herdr('agent', 'list'), 'agent list', 'agent_list').agents as Obj[];
    expect(listed.map((a) => [a.pane_id, a.agent])).toEqual([[id, 'claude']]);
  });

  it('a message goes working, then done; reads do not mark it seen; focus does', async () => {
    const seq = ok(await herdr('agent', 'get', id), 'agent get', 'agent_info').agent.state_change_seq as number;
    // Raw socket wait (no CLI start-up delay), so it is in place before Enter.
    const working = fh.request('agent.wait', { target: id, until: ['working'], timeout_ms: 20_000 });
    await sleep(200);
    expect((await herdr('pane', 'send-text', id, '[relevo ronda 1 · de planner]')).stdout).toBe('');
    expect((await herdr('pane', 'send-keys', id, 'enter')).stdout).toBe('');
    expect(((await working) as Obj).result.agent).toMatchObject({ pane_id: id, agent_status: 'working' });

    const done = ok(await herdr('agent', 'wait', id, '--until', 'done', '--timeout', '20000'), 'agent wait', 'agent_info').agent as Obj;
    expect(done).toMatchObject({ agent: 'claude', agent_status: 'done', state_change_seq: seq + 2 });
    // already done → returns at once (a block would hit the 2 s timeout and exit 1)
    const again = ok(await herdr('agent', 'wait', id, '--until', 'done', '--timeout', '2000'), 'agent wait', 'agent_info');
    expect(again.agent.agent_status).toBe('done');
    // default --until is idle|done|blocked
    expect(ok(await herdr('agent', 'wait', id, '--timeout', '2000'), 'agent wait', 'agent_info').agent.agent_status).toBe('done');

    expect(await read(id)).toContain('❯ [relevo ronda 1 · de planner]');
    const agentRead = await herdr('agent', 'read', id, '--source', 'visible');
    expect(agentRead.exitCode).toBe(0);
    expect(String(agentRead.stdout)).toContain('<handoff>');
    expect(ok(await herdr('agent', 'get', id), 'agent get', 'agent_info').agent.agent_status).toBe('done');

    const focused = ok(await herdr('pane', 'focus', id), 'pane focus', 'pane_info').pane as Obj;
    expect(focused).toMatchObject({ pane_id: id, focused: true, agent_status: 'idle' });
    expect(ok(await herdr('agent', 'get', id), 'agent get', 'agent_info').agent).toMatchObject({
      agent_status: 'idle',
      state_change_seq: seq + 3,
    });
    opError(
      await herdr('agent', 'wait', id, '--until', 'working', '--timeout', '300'),
      'agent wait',
      'timeout',
      'timed out waiting for agent status',
    );
  });

  it('events.subscribe acknowledges, then pushes the initial status event', async () => {
    const lines = await new Promise<Obj[]>((resolve, reject) => {
      const sock = connect(fh.socket);
      let buf = '';
      sock.setEncoding('utf8');
      sock.on('connect', () =>
        sock.write(
          `${JSON.stringify({ id: 's1', method: 'events.subscribe', params: { subscriptions: [{ type: 'pane.agent_status_changed', pane_id: id, agent_status: 'idle' }] } })}\n`,
        ),
      );
      sock.on('data', (chunk: string) => {
        buf += chunk;
        const got = buf.split('\n').filter((l) => l !== '');
        if (got.length >= 2) {
          sock.destroy();
          resolve(got.map((l) => JSON.parse(l) as Obj));
        }
      });
      sock.on('error', reject);
    });
    expect(lines).toEqual([
      { id: 's1', result: { type: 'subscription_started' } },
      { event: 'pane.agent_status_changed', data: { pane_id: id, agent_status: 'idle', agent: 'claude' } },
    ]);
  });

  it('agent prompt pastes, presses Enter and --wait waits for the turn', async () => {
    const prompted = ok(
      await herdr('agent', 'prompt', id, 'second message', '--wait', '--until', 'done', '--timeout', '20000'),
      'agent prompt',
      'agent_prompted',
    );
    expect(prompted.agent).toMatchObject({ pane_id: id, agent: 'claude', agent_status: 'done' });
    expect(await read(id)).toContain('❯ second message');
  });
});

describe('agent start and blocked (herdr.md §1 "Start an agent", §3)', () => {
  it('starts `claude` (a wrapper script: detected by process name), names it, and sees it blocked', async () => {
    const wrappers = join(fh.dir, 'wbin');
    mkdirSync(wrappers);
    // Not `exec`: the foreground process is the script itself (argv0 /bin/sh, name `claude`).
    const script = `#!/bin/sh\n'${process.execPath}' '${BIN}' sim-agent --role planner --think-ms 300 --misbehave permission:1 "$@"\n`;
    writeFileSync(join(wrappers, 'claude'), script, { mode: 0o755 });
    const id = await newPane(`PATH=${wrappers}:${process.env.PATH ?? ''}`);

    usageError(await herdr('agent', 'start', 'plan', '--kind', 'claude'));
    opError(await herdr('agent', 'start', 'Plan', '--kind', 'claude', '--pane', id), 'agent start', 'invalid_request');
    const started = ok(
      await herdr('agent', 'start', 'plan', '--kind', 'claude', '--pane', id, '--timeout', '20000', '--', '--name', 'plan'),
      'agent start',
      'agent_started',
    );
    expect(started.argv).toEqual(['claude', '--name', 'plan']);
    expect(started.agent).toMatchObject({ pane_id: id, name: 'plan', agent: 'claude', agent_status: 'idle', interactive_ready: true });
    const procs = ok(await herdr('pane', 'process-info', '--pane', id), 'pane process-info', 'pane_process_info')
      .foreground_processes as Obj[];
    expect(procs[0]).toMatchObject({ name: 'claude', argv: ['/bin/sh', join(wrappers, 'claude'), '--name', 'plan'] });

    const other = await newPane();
    opError(
      await herdr('agent', 'start', 'plan', '--kind', 'claude', '--pane', other, '--timeout', '20000'),
      'agent start',
      'agent_name_taken',
    );
    opError(
      await herdr('agent', 'start', 'again', '--kind', 'claude', '--pane', id, '--timeout', '20000'),
      'agent start',
      'agent_pane_unavailable',
    );

    // --misbehave permission:1: the first turn asks "Do you want to proceed?"
    const asked = ok(await herdr('agent', 'prompt', 'plan', 'go', '--wait', '--timeout', '20000'), 'agent prompt', 'agent_prompted');
    expect(asked.agent).toMatchObject({ name: 'plan', agent_status: 'blocked' });
    expect(await read(id, '--source', 'detection')).toContain('Do you want to proceed?');
    await herdr('pane', 'send-keys', id, 'enter');
    expect(
      ok(await herdr('agent', 'wait', 'plan', '--until', 'done', '--timeout', '20000'), 'agent wait', 'agent_info').agent.agent_status,
    ).toBe('done');
    ok(await herdr('agent', 'focus', 'plan'), 'agent focus', 'agent_info');
    expect(ok(await herdr('agent', 'get', 'plan'), 'agent get', 'agent_info').agent.agent_status).toBe('idle');
  });
});

describe('HERDR_AGENT (herdr.md §3 "Which agent is running")', () => {
  it('forces the kind of whatever runs in front of the shell; the bare shell stays unknown', async () => {
    const id = await newPane('HERDR_AGENT=codex');
    expect(ok(await herdr('pane', 'get', id), 'pane get', 'pane_info').pane).not.toHaveProperty('agent');
    await herdr('pane', 'run', id, 'sleep', '30');
    const agent = ok(await herdr('agent', 'wait', id, '--until', 'idle', '--timeout', '10000'), 'agent wait', 'agent_info').agent as Obj;
    expect(agent).toMatchObject({ agent: 'codex', agent_status: 'idle' }); // known agent, no rule → idle
    await herdr('pane', 'send-keys', id, 'ctrl+c');
    expect(
      ok(await herdr('agent', 'wait', id, '--until', 'unknown', '--timeout', '10000'), 'agent wait', 'agent_info').agent,
    ).not.toHaveProperty('agent');
    ok(await herdr('pane', 'close', id), 'pane close', 'ok');
  });
});

describe('stopping the server (herdr.md §6.1)', () => {
  it('hangs up every PTY; the CLI then reports server_not_running', async () => {
    const other = await startFakeHerdr();
    const env = other.env;
    let pids: number[] = [];
    try {
      const split = ok(await other.herdr('pane', 'split', '--direction', 'right'), 'pane split', 'pane_info');
      const id = split.pane.pane_id as string;
      await other.herdr('pane', 'run', id, 'sleep', '300');
      await expect
        .poll(
          async () => {
            const info = ok(await other.herdr('pane', 'process-info', '--pane', id), 'pane process-info', 'pane_process_info');
            pids = (info.foreground_processes as Obj[]).map((p) => p.pid as number);
            return (info.foreground_processes as Obj[]).map((p) => p.name as string);
          },
          { timeout: 10_000 },
        )
        .toEqual(['sleep']);
    } finally {
      await other.stop();
    }
    await expect.poll(() => pids.filter(exists), { timeout: 5000 }).toEqual([]);
    opError(await runHerdr(env, ['pane', 'list']), 'pane list', 'server_not_running');
  });
});
