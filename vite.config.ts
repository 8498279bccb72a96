import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig(({ command }) => ({
  plugins: [reactRouter()],
  css: {
    preprocessorOptions: {
      scss: {
        // Bootstrap 5.3 still uses Sass features that Dart Sass announces it will drop.
        silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'],
        quietDeps: true,
      },
    },
  },
  build: { sourcemap: false },
  // Bundled into the server build instead of loaded from node_modules at start: react-bootstrap's
  // CommonJS build is some 250 files with its helpers, about a fifth of a start's module loading.
  // react-bootstrap-icons' CommonJS build is one 3.5 MB file of all 2,078 icons (~300 ms to load on a
  // 2-core machine); bundled, its ES build leaves only the icons the pages use.
  // React and React Router stay external: the server and the build must share one instance. Only
  // for the build: Vite's development server would run their CommonJS as ES modules and fail.
  ssr:
    command === 'build'
      ? {
          noExternal: [
            'react-bootstrap',
            '@restart/ui',
            '@restart/hooks',
            'dom-helpers',
            'uncontrollable',
            'react-transition-group',
            'react-bootstrap-icons',
          ],
        }
      : {},
}));
