// The docs as a reader meets them: README.md and every docs/*.md page. Every GraphQL document
// (```graphql blocks, `{"query": ...}` bodies) validates against the schema, every relative link
// points at a page and heading that exist, every repository path named in backticks exists, and
// the README stays an entry page. The marked examples run in readme.test.ts (a local server, a
// whole game: the slow project); these checks are quick. A broken link fails `npm test`.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, blocks, docPages, problems, readPage, relativeLinks, repoPaths, ROOT } from './pages.js';

/** Paths git ignores (built or generated: `web/dist/`, the SDK's generated.ts): named in the docs, absent from a clone. */
const ignored = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#') && !/[*?]/.test(l));

const pages = docPages().map((page) => ({ page, md: readPage(page) }));

describe('the README is an entry page', () => {
  const readme = readPage('README.md');

  it('opens with the two commands and stays short', () => {
    const first = blocks(readme)[0];
    expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('\n## '));
    expect(first.code).toMatch(/^npm install && npm start\b/m);
    expect(first.code).toMatch(/^npm test\b/m);
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('links every docs page', () => {
    const linked = new Set(relativeLinks(readme).map((l) => l.split('#')[0]));
    for (const { page } of pages.filter((p) => p.page.startsWith('docs/'))) expect(linked, page).toContain(page);
  });
});

describe.each(pages)('$page', ({ page, md }) => {
  it('every GraphQL block and JSON query validates against the schema', () => {
    const docs = [
      ...blocks(md)
        .filter((b) => b.lang === 'graphql')
        .map((b) => ({ where: `${page} line ${b.line}`, doc: b.code })),
      ...[...md.matchAll(/"query":\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => ({
        where: `${page}: a {"query": ...} body`,
        doc: JSON.parse(`"${m[1]}"`) as string,
      })),
    ];
    for (const { where, doc } of docs) expect(problems(doc), where).toEqual([]);
  });

  it('every file and folder it names in backticks exists (or is one git ignores: built or generated)', () => {
    for (const path of repoPaths(md)) {
      const known =
        existsSync(join(ROOT, path)) ||
        ignored.some(
          (i) => path.replace(/\/$/, '') === i.replace(/\/$/, '') || path.startsWith(i.endsWith('/') ? i : `${i}/`),
        );
      expect(known, `${page} names \`${path}\``).toBe(true);
    }
  });

  it('every relative link points at a file, and at a heading of it', () => {
    for (const link of relativeLinks(md)) {
      const [path, anchor] = link.split('#');
      const target = path === '' ? page : normalize(join(dirname(page), path));
      expect(existsSync(join(ROOT, target)), `${page}: ${link}`).toBe(true);
      if (anchor !== undefined && target.endsWith('.md'))
        expect([...anchors(readPage(target))], `${page}: ${link}`).toContain(anchor);
    }
  });
});
