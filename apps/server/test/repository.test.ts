import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands alone: whoever clones it finds everything it points to inside it. The
 * behaviour and the design live in docs/ (docs/README.md); the documents the project started from
 * are not part of it, so nothing may cite them.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Tracked files, except the CI machinery's own folder. */
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '' && !file.startsWith('.ci/'));
const trackedSet = new Set(tracked);
const folders = new Set(
  tracked.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);

function text(file: string): string | null {
  let buffer: Buffer;
  try {
    buffer = readFileSync(path.join(ROOT, file));
  } catch {
    return null; // deleted in the working tree, not yet committed
  }
  return buffer.includes(0) ? null : buffer.toString('utf8');
}

// Built from pieces so that this file does not match itself.
const SECTION = '\u00a7';
const OUTSIDE = [
  { what: 'the old design notes', pattern: new RegExp(`DESIGN(\\.md| ${SECTION})`) },
  { what: 'a section of the old specification', pattern: new RegExp(`\\bspec\\b[^\\n]{0,25}${SECTION}`, 'i') },
  { what: 'the shared folder beside the repository', pattern: new RegExp(['\\.\\.', 'shared'].join('/')) },
];

/** Every place in `content` that cites a document outside the repository, as "line: what". */
export function outsideReferences(content: string): string[] {
  const found: string[] = [];
  content.split('\n').forEach((line, index) => {
    for (const { what, pattern } of OUTSIDE) if (pattern.test(line)) found.push(`${index + 1}: ${what}: ${line.trim()}`);
  });
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorsCache.get(file);
  if (!anchors) {
    anchors = new Set();
    let inFence = false;
    for (const line of (text(file) ?? '').split('\n')) {
      if (line.startsWith('```')) inFence = !inFence;
      const heading = !inFence && /^#{1,6}\s+(.*)$/.exec(line);
      if (heading) anchors.add(slug(heading[1]));
    }
    anchorsCache.set(file, anchors);
  }
  return anchors;
}

/** What is wrong with a link to `target` (a repository path, maybe with #anchor), or null. */
function brokenTarget(target: string): string | null {
  const [file, anchor] = target.split('#');
  const exists = trackedSet.has(file) || folders.has(file.replace(/\/$/, ''));
  if (!exists) return 'no such file in the repository';
  if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) return `no heading for #${anchor}`;
  return null;
}

describe('the repository stands alone', () => {
  it('flags each kind of reference to a document outside the repository', () => {
    const samples = [
      `see DESIGN${'.md'} first`,
      `budget (DESIGN ${SECTION}8)`,
      `rule (Spec ${SECTION}5)`,
      `as the spec says (${SECTION}6)`,
      `from ../${'shared'}/spec`,
    ];
    for (const sample of samples) expect(outsideReferences(sample), sample).toHaveLength(1);
    expect(outsideReferences('docs/design.md#budgets and RFC 1035 §3.3')).toEqual([]);
  });

  it('no tracked file cites the old design notes, the old specification or the shared folder', () => {
    const offences = tracked.flatMap((file) => outsideReferences(text(file) ?? '').map((place) => `${file}:${place}`));
    expect(offences).toEqual([]);
  });

  it('every decision record carries its date and status under its title', () => {
    const records = tracked.filter((file) => /^docs\/decisions\/\d{3}-.*\.md$/.test(file));
    expect(records.length).toBeGreaterThan(20);
    const undated = records.filter((file) => !/^# .+\n\nDate: \d{4}-\d{2}-\d{2}[^·\n]* · Status: \S/.test(text(file) ?? ''));
    expect(undated).toEqual([]);
  });

  it('every markdown link in docs/ and README.md points at a file of the repository', () => {
    const markdown = tracked.filter((file) => file === 'README.md' || (file.startsWith('docs/') && file.endsWith('.md')));
    expect(markdown.length).toBeGreaterThan(3);
    const broken: string[] = [];
    for (const file of markdown) {
      for (const [, target] of (text(file) ?? '').matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue; // a web address or mailto
        const resolved = target.startsWith('#') ? `${file}${target}` : path.posix.join(path.posix.dirname(file), target);
        const problem = brokenTarget(resolved);
        if (problem) broken.push(`${file}: (${target}) ${problem}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every docs/ section a tracked file cites names a heading of that document', () => {
    const broken: string[] = [];
    for (const file of tracked) {
      for (const [target] of (text(file) ?? '').matchAll(/\bdocs\/[\w./-]+\.md(#[\w-]+)?/g)) {
        const problem = brokenTarget(target);
        if (problem) broken.push(`${file}: ${target} ${problem}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
