/**
 * npm run check:structure — two numbers the layers need to stay true, checked in `npm test`:
 *
 * - no import circles among the product's modules (shared/, server/src, main/src, preload/src, renderer/src),
 *   type-only imports included: a circle of types is still two files that cannot be read one before the
 *   other, and the next value import along it makes a real one;
 * - no file over 400 lines in those folders (STYLE.md: a file past that is usually two files).
 *
 * With `--depth`, it also prints each folder's longest chain of imports inside itself, the "levels" a reader
 * goes down to follow one call. Imports are read with TypeScript's own pre-processor, so `import type`,
 * `export … from` and dynamic imports all count.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const SOURCE_FOLDERS = ['shared', 'server/src', 'main/src', 'preload/src', 'renderer/src'];
const LINES_MAX = 400;

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** The project files `file` imports (relative specifiers only: packages are not part of the graph). */
function importsOf(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier))
    .filter((path) => existsSync(path));
}

/** Strongly connected components with more than one file, or a file that imports itself (Tarjan). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** The longest chain of imports from each file staying inside `folder` (the graph has no circles here). */
function depths(graph: ReadonlyMap<string, readonly string[]>, folder: string): Map<string, number> {
  const memo = new Map<string, number>();
  const depth = (file: string): number => {
    const known = memo.get(file);
    if (known !== undefined) return known;
    memo.set(file, 1);
    const inside = (graph.get(file) ?? []).filter((target) => dirname(target) === folder);
    const value = 1 + Math.max(0, ...inside.map(depth));
    memo.set(file, value);
    return value;
  };
  for (const file of graph.keys()) if (dirname(file) === folder) depth(file);
  return memo;
}

const graph = new Map<string, string[]>();
const tooLong: string[] = [];
for (const folder of SOURCE_FOLDERS) {
  for (const file of sourceFiles(resolve(ROOT, folder))) {
    const text = readFileSync(file, 'utf8');
    graph.set(file, importsOf(file, text));
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > LINES_MAX) tooLong.push(`${relative(ROOT, file)}: ${lines} lines`);
  }
}

/** The same graph between folders: a folder that imports another which imports it back is one layer, not two. */
function folderGraph(fileGraph: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of fileGraph) {
    const from = dirname(file);
    const set = folders.get(from) ?? new Set<string>();
    folders.set(from, set);
    for (const target of targets) if (dirname(target) !== from) set.add(dirname(target));
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets]]));
}

const found = [...circles(graph), ...circles(folderGraph(graph))];
const files = graph.size;
if (process.argv.includes('--depth')) {
  const folders = [...new Set([...graph.keys()].map((file) => dirname(file)))].sort();
  for (const folder of folders) {
    const deepest = [...depths(graph, folder)].sort((a, b) => b[1] - a[1])[0];
    if (deepest)
      console.log(`${relative(ROOT, folder)}: ${deepest[1]} levels (${relative(ROOT, deepest[0])})`);
  }
}
for (const circle of found)
  console.error(`Import circle: ${circle.map((file) => relative(ROOT, file)).join(' ↔ ')}`);
for (const line of tooLong) console.error(`Over ${LINES_MAX} lines: ${line}`);
if (found.length > 0 || tooLong.length > 0) {
  console.error(
    `${found.length} import circle(s) and ${tooLong.length} file(s) over ${LINES_MAX} lines among ${files} source files.`,
  );
  process.exit(1);
}
console.log(`${files} source files: no import circles, none over ${LINES_MAX} lines.`);
