import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { productSourceFiles } from '../../tests/setup/source-files.ts';
import { projectRoot } from './project-root.ts';

/**
 * No error is caught and dropped in product code (server/, app/, scripts/; tests are not held to
 * it). A caught error is handled as an expected case, rethrown, or reported: on the server logged
 * and counted (server/lib/best-effort.ts: `deps.caught.reportCaught`, `bestEffort`), in the browser
 * shown to the member or warned about (app/lib/report-caught.ts).
 *
 * What fails here:
 * - a `catch` clause without an error binding, or whose block never uses it;
 * - a `.catch(…)` whose callback takes no parameter or never uses it (a handler passed by name,
 *   e.g. `.catch(this.onError)`, gets the error and passes).
 * Either is fine when it handles an expected case and says which: a comment starting `expected:`
 * inside the catch block or the callback (`// expected: a cookie that is not JSON is no cookie`).
 */
const roots = ['server', 'app', 'scripts'];
const sourceFile = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const notProduct = /\.test\.(ts|tsx)$|\.d\.ts$/;
const skippedFolders = new Set(['node_modules', 'build', 'migrations', '+types']);

/** A comment starting `expected:` with a reason after it. */
const expectedMarker = /(\/\/|\/\*)\s*expected:\s*\S/;

/**
 * Files whose silent catches are still to be fixed, each a whole file: an entry is
 * `['path/of/file.ts', 'what is still silent there']` under a `// TODO(path/of/file.ts)` comment.
 * An entry whose file has none left fails the test, so the list only shrinks. None is left.
 */
const allowList = new Map<string, string>([]);

function productFiles(): string[] {
  return productSourceFiles(roots, { sourceFile, notProduct, skippedFolders });
}

/** The names a binding (an identifier or a destructuring pattern) introduces. */
function boundNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) =>
    ts.isOmittedExpression(element) ? [] : boundNames(element.name),
  );
}

function uses(body: ts.Node, names: string[]): boolean {
  let found = false;
  const visit = (node: ts.Node) => {
    if (found) return;
    if (ts.isIdentifier(node) && names.includes(node.text)) {
      // `{ error: x }` names a property, not the binding; `{ error }` does use it.
      const parent = node.parent;
      const isPropertyName =
        (ts.isPropertyAssignment(parent) && parent.name === node) ||
        (ts.isPropertyAccessExpression(parent) && parent.name === node);
      if (!isPropertyName) found = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return found;
}

/** What is silent in one file's text: `line: what`, one per finding. */
function silentCatches(fileName: string, text: string): string[] {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : undefined;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const findings: string[] = [];
  const report = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    findings.push(`${fileName}:${line + 1}: ${what}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isCatchClause(node) && !expectedMarker.test(node.block.getText(source))) {
      const binding = node.variableDeclaration;
      if (!binding) report(node, 'catch without an error binding');
      else if (!uses(node.block, boundNames(binding.name))) report(node, 'catch that never uses its error');
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'catch'
    ) {
      const handler = node.arguments[0];
      if (!handler) report(node, '.catch() without a handler');
      else if (
        (ts.isArrowFunction(handler) || ts.isFunctionExpression(handler)) &&
        !expectedMarker.test(handler.getFullText(source))
      ) {
        const parameter = handler.parameters[0];
        if (!parameter) report(node.expression.name, '.catch callback without a parameter');
        else if (!uses(handler.body, boundNames(parameter.name))) {
          report(node.expression.name, '.catch callback that never uses its error');
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

describe('caught errors in product code', () => {
  const files = productFiles();
  const findings = new Map(
    files.map((file) => [file, silentCatches(file, readFileSync(path.join(projectRoot, file), 'utf8'))]),
  );

  it('are handled, rethrown or reported, never dropped', () => {
    const silent = [...findings].filter(([file]) => !allowList.has(file)).flatMap(([, found]) => found);
    expect(silent, 'mark an expected case with `// expected: <why>` inside the catch').toEqual([]);
  });

  it('lists only files that still have a silent catch', () => {
    const stale = [...allowList.keys()].filter((file) => (findings.get(file) ?? []).length === 0);
    expect(stale, 'these files have no silent catch left: remove their allow-list entries').toEqual([]);
  });

  it('finds a silent catch of each kind, and takes the marker', () => {
    const sample = [
      'try { a(); } catch {}',
      'try { a(); } catch (error) { return null; }',
      'p.catch(() => undefined);',
      'p.catch((_error) => null);',
      'try { a(); } catch { /* expected: fine */ }',
      'try { a(); } catch (error) { log(error); }',
      'p.catch((error) => log(error));',
      'p.catch(onError);',
      'p.catch(() => {\n  // expected: the caller gets the same rejection\n});',
    ].join('\n');
    expect(silentCatches('sample.ts', sample)).toEqual([
      'sample.ts:1: catch without an error binding',
      'sample.ts:2: catch that never uses its error',
      'sample.ts:3: .catch callback without a parameter',
      'sample.ts:4: .catch callback that never uses its error',
    ]);
  });

  it('reads every product folder', () => {
    for (const root of roots) expect(files.some((file) => file.startsWith(`${root}/`))).toBe(true);
  });
});
