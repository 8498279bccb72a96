import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const server = path.dirname(new URL(import.meta.url).pathname);

describe('the app builder', () => {
  it('is files short enough to read in one screen each (under 200 lines)', () => {
    const files = readdirSync(server).filter((name) => /^app(-[a-z]+)?\.ts$/.test(name));
    expect(files).toEqual(
      expect.arrayContaining([
        'app.ts',
        'app-infrastructure.ts',
        'app-services.ts',
        'app-plugins.ts',
        'app-routes.ts',
      ]),
    );
    const long = files
      .map((name) => [name, readFileSync(path.join(server, name), 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines >= 200);
    expect(long).toEqual([]);
  });
});
