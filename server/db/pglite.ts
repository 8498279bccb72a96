import v8 from 'node:v8';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/**
 * How much a WebAssembly function runs (V8's rough count of bytes executed) before V8 compiles it
 * again with its optimising compiler. V8's default (1.8 M) tiers up thousands of PostgreSQL's
 * functions while the embedded database starts, on every core at once: a start with an existing
 * data folder spent ~1.3 s more wall time and ~2.5 s more CPU than with this budget, and a query
 * loop ran as fast (docs/decisions/024). Hot functions still tier up in a long-running process.
 */
const wasmTieringBudget = 1_000_000_000;

let tuned = false;

/** Sets the tiering budget once, before the first PGlite module is compiled in this process. */
export function tuneWasmTiering(): void {
  if (tuned) return;
  tuned = true;
  v8.setFlagsFromString(`--wasm-tiering-budget=${wasmTieringBudget}`);
}

/** Every embedded database of the app, the tools and the tests opens here. */
export function createPglite(dataDir?: string, options?: PGliteOptions): Promise<PGlite> {
  tuneWasmTiering();
  return dataDir === undefined ? PGlite.create(options) : PGlite.create(dataDir, options);
}
