import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README stays a short front page; the manual lives in docs/, every page reachable from it.
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');
const MAX_README_LINES = 200;

const docPages = (): string[] =>
  existsSync(DOCS)
    ? readdirSync(DOCS)
        .filter((name) => name.endsWith('.md'))
        .map((name) => join(DOCS, name))
    : [];

/** The text outside fenced code blocks and inline code, where a `[x](y)` is a link. */
const prose = (text: string): string => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');

/** Every link target written in a Markdown file, as written (inline links and reference definitions). */
function links(text: string): string[] {
  const body = prose(text);
  const inline = [...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const defined = [...body.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  return [...inline, ...defined];
}

/** GitHub's anchor for each heading of a Markdown file (lower case, punctuation dropped, spaces to dashes, repeats numbered). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** What is wrong with the relative links of one Markdown file: a missing file, or a missing heading in a Markdown file. */
function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const broken: string[] = [];
  for (const link of links(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: and the like
    const [path = '', fragment] = link.split('#', 2);
    const target = path === '' ? file : join(dirname(file), decodeURIComponent(path));
    const where = `${relative(ROOT, file)}: ${link}`;
    if (!existsSync(target)) {
      broken.push(`${where} (no such file)`);
      continue;
    }
    if (fragment && target.endsWith('.md') && statSync(target).isFile()) {
      if (!anchors(readFileSync(target, 'utf8')).has(decodeURIComponent(fragment))) broken.push(`${where} (no such heading)`);
    }
  }
  return broken;
}

describe('the README and docs/', () => {
  it(`keeps README.md to ${MAX_README_LINES} lines`, () => {
    const lines = readFileSync(README, 'utf8').replace(/\n$/, '').split('\n').length;
    expect(lines, `README.md has ${lines} lines; move the detail into docs/`).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it('links every docs/*.md page from the README', () => {
    const linked = new Set(
      links(readFileSync(README, 'utf8'))
        .filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l))
        .map((l) => join(ROOT, decodeURIComponent(l.split('#')[0]!))),
    );
    const pages = docPages();
    expect(pages.length, 'docs/ holds the manual').toBeGreaterThan(0);
    expect(pages.filter((p) => !linked.has(p)).map((p) => relative(ROOT, p))).toEqual([]);
  });

  it('has no relative link to a file or heading that does not exist', () => {
    expect([README, ...docPages()].flatMap(brokenLinks)).toEqual([]);
  });
});
