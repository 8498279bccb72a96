import { fileURLToPath } from 'node:url';

/**
 * The project's folder, for the files the server reads at run time (migrations, locales, content,
 * the page build). The one place that derives it from a module's own address: this file sits two
 * folders deep (server/lib), as does the bundled server (build/app-server/main.mjs, decision 020),
 * so both find the same folder.
 */
export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
