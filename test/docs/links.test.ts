import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every relative link of a markdown file: `[text](target)` outside code blocks. */
function linksOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]).filter((target) => !/^(https?:|mailto:)/.test(target));
}

describe('documentation links (README.md and docs/)', () => {
  for (const file of DOCS) {
    it(`when ${file} links to a file or a heading, then it exists`, () => {
      for (const link of linksOf(file)) {
        const [target, anchor] = link.split('#');
        const resolved = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
        assert.ok(fs.existsSync(path.join(ROOT, resolved)), `${file}: ${link} names a missing file`);
        if (anchor && resolved.endsWith('.md')) assert.ok(anchorsOf(resolved).has(anchor), `${file}: ${link} names no heading of ${resolved}`);
      }
    });
  }

  it('when a document exists under docs/, then the README links to it', () => {
    const linked = new Set(linksOf('README.md').map((link) => link.split('#')[0]));
    for (const file of DOCS.filter((name) => name !== 'README.md')) assert.ok(linked.has(file), `README.md does not link ${file}`);
  });
});
