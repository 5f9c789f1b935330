import { describe, expect, it } from 'vitest';
import { faultWatcher, toastFor } from '../../src/tui/state/toast-text.js';

describe('fault pauses in the TUI', () => {
  it('each new state_unwritable or internal_error pause is shown once, from the state (its journal line may be missing)', () => {
    const shown: string[] = [];
    const watch = faultWatcher('C-]', (text) => shown.push(text));
    const full = { reason: 'state_unwritable' as const, detail: 'ENOSPC: no space left on device, write' };
    watch(null);
    watch({ reason: 'user' });
    watch(full);
    watch(full);
    watch(null);
    watch({ reason: 'internal_error', detail: 'failpoint read-reply' });
    expect(shown).toEqual([
      'paused: state_unwritable: ENOSPC: no space left on device, write — free space or fix the state directory, then C-] r resumes',
      'paused: internal_error: failpoint read-reply — then C-] r resumes',
    ]);
    // Not twice: the journal line of such a pause makes no toast of its own.
    expect(toastFor({ seq: 1, ts: '2026-01-01T00:00:00Z', type: 'paused', reason: 'state_unwritable', detail: 'ENOSPC' })).toBeNull();
    expect(toastFor({ seq: 1, ts: '2026-01-01T00:00:00Z', type: 'paused', reason: 'user' })).not.toBeNull();
  });
});
