// Node module hooks for the lazy-start test: every bare package name the process resolves is written
// to stderr as "imported <name>", so the test can tell which packages a start loads.
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (!/^(node:|\.|\/|#|file:|data:)/.test(specifier)) process.stderr.write(`imported ${specifier}\n`);
  return result;
}
