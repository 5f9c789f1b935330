/**
 * `npm run build`'s second step: the command bundled from tsc's output into dist/bundle/ (a few
 * chunks, split where the CLI imports lazily, instead of hundreds of modules each loaded on its own),
 * libraries in production builds, the pseudo-terminal driver and ink's devtools left outside, and
 * the bundled packages' licences beside it.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { PACKAGE_ROOT } from '../app/config/paths.js';

const DIST = join(PACKAGE_ROOT, 'dist');
const NOTICES = 'THIRD-PARTY-LICENSES.md';
/** string-width as Ink imports it, and the module put in its place (src/tui/paint/plain-width.ts says why). */
const STRING_WIDTH = fileURLToPath(import.meta.resolve('string-width'));
const PLAIN_WIDTH = '\0plain-width';

/** The package a bundled module belongs to: its folder under the last node_modules/ of its path. */
function packageDir(id: string): string | null {
  const at = id.lastIndexOf(`${sep}node_modules${sep}`);
  if (at < 0) return null;
  const [scope = '', name = ''] = id.slice(at + 14).split(sep);
  return id.slice(0, at + 14) + (scope.startsWith('@') ? `${scope}${sep}${name}` : scope);
}

type Manifest = {
  name: string;
  version: string;
  license?: string;
  author?: string | { name: string };
  repository?: string | { url: string };
};

const authorOf = (pkg: Manifest) => {
  const author = typeof pkg.author === 'object' ? pkg.author.name : pkg.author;
  const repo = typeof pkg.repository === 'object' ? pkg.repository.url : pkg.repository;
  return `${author === undefined ? '' : `, author ${author}`}${repo === undefined ? '' : `, source ${repo}`}`;
};

/** One package's notice: name, version, licence and its licence file's text. */
function notice(dir: string): string {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  const text =
    file === undefined
      ? `The package ships no licence file; its package.json declares ${pkg.license ?? 'none'}${authorOf(pkg)}.`
      : readFileSync(join(dir, file), 'utf8').trim();
  return `## ${pkg.name}@${pkg.version} (${pkg.license ?? 'unknown licence'})\n\n\`\`\`\n${text}\n\`\`\`\n`;
}

/** Bundles tsc's `input` modules (paths under dist/) into `out` (under dist/), with the licences beside. */
async function bundle(input: Record<string, string>, out: string): Promise<{ chunks: number; bytes: number; packages: number }> {
  const OUT = join(DIST, out);
  rmSync(OUT, { recursive: true, force: true });
  const build = await rolldown({
    input: Object.fromEntries(Object.entries(input).map(([name, path]) => [name, join(DIST, path)])),
    platform: 'node',
    external: ['@lydell/node-pty', 'react-devtools-core', /^node:/],
    logLevel: 'warn',
    // A schema built where first used has no effect until then: a module that only declares schemas
    // stays out of the chunks that do not use them (the first frame's, src/protocol/schemas/lazy.ts).
    treeshake: { manualPureFunctions: ['lazySchema'] },
    plugins: [
      {
        // Libraries read NODE_ENV to pick their build; relevo runs them in production whatever the shell says.
        name: 'production-libraries',
        transform: {
          filter: { id: /node_modules/ },
          handler: (code) => (code.includes('process.env.NODE_ENV') ? code.replaceAll('process.env.NODE_ENV', '"production"') : null),
        },
      },
      {
        // Ink's string-width compiles a costly emoji test on its first non-ASCII text: plain text is
        // measured without it (src/tui/paint/plain-width.ts). wrap-ansi's own older string-width is left.
        name: 'plain-width',
        async resolveId(source, importer) {
          if (source !== 'string-width' || importer === undefined) return null;
          const resolved = await this.resolve(source, importer, { skipSelf: true });
          return resolved?.id === STRING_WIDTH ? PLAIN_WIDTH : null;
        },
        load(id) {
          if (id !== PLAIN_WIDTH) return null;
          return [
            `import stringWidth from ${JSON.stringify(STRING_WIDTH)};`,
            `import { plainWidth } from ${JSON.stringify(join(DIST, 'tui', 'paint', 'plain-width.js'))};`,
            'export default (text, options) => (options === undefined && typeof text === "string" ? plainWidth(text) : undefined) ?? stringWidth(text, options);',
          ].join('\n');
        },
      },
    ],
  });
  // ASCII only (non-ASCII escaped): V8 keeps a module's source while it runs, and one character
  // outside Latin-1 makes it a two-byte string, twice the memory.
  const { output } = await build.write({ dir: OUT, format: 'esm', minify: true, charset: 'ascii', chunkFileNames: '[name]-[hash].js' });
  await build.close();
  const packages = new Set<string>();
  let bytes = 0;
  for (const chunk of output) {
    if (chunk.type !== 'chunk') continue;
    bytes += chunk.code.length;
    for (const id of chunk.moduleIds) {
      const dir = packageDir(id);
      if (dir !== null && existsSync(join(dir, 'package.json'))) packages.add(dir);
    }
  }
  const sorted = [...packages].sort((a, b) => relative(PACKAGE_ROOT, a).localeCompare(relative(PACKAGE_ROOT, b)));
  const head = '# Third-party licences\n\nThe bundle in this folder includes code from these packages, under their licences:\n\n';
  writeFileSync(join(OUT, NOTICES), head + sorted.map(notice).join('\n'));
  return { chunks: output.filter((c) => c.type === 'chunk').length, bytes, packages: packages.size };
}

if (process.argv.includes('--bench')) {
  // `npm run build:bench`: the bench's floor of an Ink TUI (bench/ink-floor.tsx), bundled as the command is.
  await bundle({ 'ink-floor': 'bench/ink-floor.js' }, 'bench/ink-floor');
} else {
  const { chunks, bytes, packages } = await bundle({ cli: 'cli.js', hook: 'hook/send.js' }, 'bundle');
  process.stdout.write(`bundle: ${chunks} chunks, ${(bytes / 1024).toFixed(0)} kB, code from ${packages} packages (dist/bundle/)\n`);
}
