import { readdirSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/lib/project-root.ts';

/**
 * The product source files under these folders (paths from the project root, sorted): the files
 * matching `sourceFile`, without tests, declaration files and the skipped folders. For tests that
 * hold every product file to a rule (no silent catch, module boundaries).
 */
export function productSourceFiles(
  roots: string[],
  options: { sourceFile: RegExp; notProduct: RegExp; skippedFolders: ReadonlySet<string> },
): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(projectRoot, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!options.skippedFolders.has(entry.name)) walk(relative);
      } else if (options.sourceFile.test(entry.name) && !options.notProduct.test(entry.name)) {
        found.push(relative);
      }
    }
  };
  for (const root of roots) walk(root);
  return found.sort();
}
