/**
 * The line ranges of named code in today's source, for the mutation run (scripts/mutation.ts): a
 * module names the functions and constants it tests, and their lines are found by parsing the file
 * each run, so a range never drifts onto other code when the file changes above it.
 *
 * Babel's parser (which Stryker itself parses with) reads the TypeScript: TypeScript 7's package
 * has no compiler API. A name is a function, a `const`/`let` (the whole statement when it declares
 * one name), a method or an object property, at any depth; it must name exactly one of them.
 */
import { readFileSync } from 'node:fs';
import { parse } from '@babel/parser';

interface Node {
  type: string;
  loc?: { start: { line: number }; end: { line: number } };
  [key: string]: unknown;
}

type Range = [from: number, to: number];

const nameOf = (node: Node | undefined) => (node?.type === 'Identifier' ? (node.name as string) : undefined);

/** Every named declaration of the file with its lines. */
function declarations(file: string): { name: string; lines: Range }[] {
  const ast = parse(readFileSync(file, 'utf8'), { sourceType: 'module', plugins: ['typescript', 'jsx'] });
  const found: { name: string; lines: Range }[] = [];
  const add = (name: string | undefined, at: Node) => {
    if (name && at.loc) found.push({ name, lines: [at.loc.start.line, at.loc.end.line] });
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
    const n = node as Node;
    if (n.type === 'FunctionDeclaration') add(nameOf(n.id as Node), n);
    if (n.type === 'VariableDeclaration') {
      const declarators = n.declarations as Node[];
      for (const d of declarators) add(nameOf(d.id as Node), declarators.length === 1 ? n : d);
      for (const d of declarators) visit(d.init);
      return;
    }
    if (['ClassMethod', 'ObjectMethod', 'ObjectProperty', 'ClassProperty'].includes(n.type)) add(nameOf(n.key as Node), n);
    for (const [key, value] of Object.entries(n)) {
      if (key !== 'loc' && key !== 'leadingComments' && key !== 'trailingComments') visit(value);
    }
  };
  visit(ast.program);
  return found;
}

function rangesOf(file: string, names: string[]): Range[] {
  const all = declarations(file);
  return names.map((name) => {
    const matches = all.filter((d) => d.name === name);
    if (matches.length !== 1) throw new Error(`${file}: ${matches.length} declarations named ${name}, not one`);
    return matches[0].lines;
  });
}

const entry = (file: string, [from, to]: Range) => `${file}:${from}-${to}`;

/** Stryker's `mutate` entries for the named functions or constants of the file. */
export const linesOf = (file: string, ...names: string[]) => rangesOf(file, names).map((r) => entry(file, r));

/** Stryker's `mutate` entries for the whole file but the named functions or constants. */
export function linesBut(file: string, ...names: string[]): string[] {
  const end = readFileSync(file, 'utf8').split('\n').length;
  const out = rangesOf(file, names).sort((a, b) => a[0] - b[0]);
  const kept: Range[] = [];
  let next = 1;
  for (const [from, to] of out) {
    if (from > next) kept.push([next, from - 1]);
    next = Math.max(next, to + 1);
  }
  if (next <= end) kept.push([next, end]);
  return kept.map((r) => entry(file, r));
}
