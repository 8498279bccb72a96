import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#server/lib/project-root.ts';
import { productSourceFiles } from '../../tests/setup/source-files.ts';

/**
 * A module reads another area through that area's service, never its repository: only the files of
 * `server/modules/<area>/` import `server/modules/<area>/*.repository.ts`. Whatever another area
 * needs is exposed by `<area>.service.ts` — a method of its service class, or an exported function
 * that takes an Executor when the caller needs it inside its own transaction (`changeCredits`).
 * A SQL fragment several repositories build on lives in server/db/ (server/db/fragments.ts).
 *
 * Every import counts: `import`, `import type`, `export … from` and `import(…)`. Tests
 * (`*.test.ts`) may reach into any repository to set up or inspect rows.
 */
const root = 'server';
const skippedFolders = new Set(['node_modules', 'migrations']);
const sourceFile = /\.(ts|mts|cts)$/;
const notProduct = /\.test\.ts$|\.d\.ts$/;
const repositoryFile = /^server\/modules\/([^/]+)\/[^/]+\.repository(\.ts)?$/;

function productFiles(): string[] {
  return productSourceFiles([root], { sourceFile, notProduct, skippedFolders });
}

/** The module folder a file belongs to (`server/modules/<area>/…`), or null outside the modules. */
function moduleOf(file: string): string | null {
  return /^server\/modules\/([^/]+)\//.exec(file)?.[1] ?? null;
}

/** A specifier as a path from the project root (`#server/…` and relative ones); null for packages. */
function resolved(fromFile: string, specifier: string): string | null {
  if (specifier.startsWith('#server/')) return `server/${specifier.slice('#server/'.length)}`;
  if (specifier.startsWith('.'))
    return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  return null;
}

/** Every module specifier a file's text imports or re-exports, with its line. */
function specifiersOf(fileName: string, text: string): { line: number; specifier: string }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: { line: number; specifier: string }[] = [];
  const add = (node: ts.Node) => {
    if (!ts.isStringLiteralLike(node)) return;
    found.push({
      line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
      specifier: node.text,
    });
  };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      add(node.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0]
    ) {
      add(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Imports of another module folder's repository in one file: `file:line: specifier`, one per finding. */
function foreignRepositoryImports(fileName: string, text: string): string[] {
  if (!text.includes('.repository')) return [];
  const own = moduleOf(fileName);
  return specifiersOf(fileName, text).flatMap(({ line, specifier }) => {
    const target = resolved(fileName, specifier);
    const area = target ? repositoryFile.exec(target)?.[1] : undefined;
    return area !== undefined && area !== own ? [`${fileName}:${line}: ${specifier}`] : [];
  });
}

describe('module boundaries', () => {
  const files = productFiles();

  it('no file imports the repository of another module folder', () => {
    const found = files.flatMap((file) =>
      foreignRepositoryImports(file, readFileSync(path.join(projectRoot, file), 'utf8')),
    );
    expect(found, 'read another area through its service (<area>.service.ts), not its repository').toEqual(
      [],
    );
  });

  it('finds each kind of import of a foreign repository, and lets a module import its own', () => {
    const sample = [
      "import { lockUser } from '#server/modules/accounts/accounts.repository.ts';",
      "import type { SessionProfile } from '../profiles/profiles.repository.ts';",
      "export { findMail } from '#server/modules/mail/mail.repository.ts';",
      "const repo = await import('../search/search.repository.ts');",
      "type Row = import('#server/modules/likes/likes.repository.ts').LikeRow;",
      "import * as repo from './chats.repository.ts';",
      "import { toProfile } from '#server/modules/profiles/profile-view.ts';",
      "import { findProfileByUserId } from '#server/modules/profiles/profiles.service.ts';",
      "import { mainPhotoLateral } from '#server/db/fragments.ts';",
    ].join('\n');
    expect(foreignRepositoryImports('server/modules/chats/chats.service.ts', sample)).toEqual([
      'server/modules/chats/chats.service.ts:1: #server/modules/accounts/accounts.repository.ts',
      'server/modules/chats/chats.service.ts:2: ../profiles/profiles.repository.ts',
      'server/modules/chats/chats.service.ts:3: #server/modules/mail/mail.repository.ts',
      'server/modules/chats/chats.service.ts:4: ../search/search.repository.ts',
      'server/modules/chats/chats.service.ts:5: #server/modules/likes/likes.repository.ts',
    ]);
    // Outside the module folders (server/app.ts, server/db/…) every repository is another area's.
    expect(
      foreignRepositoryImports('server/app.ts', "import { x } from './modules/chats/chats.repository.ts';"),
    ).toEqual(['server/app.ts:1: ./modules/chats/chats.repository.ts']);
  });

  it('reads the module folders', () => {
    expect(files.filter((file) => repositoryFile.test(file)).length).toBeGreaterThan(10);
  });
});
