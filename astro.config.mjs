// @ts-check
import './functions/load-env-file.ts';
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { precompressFolder } from './functions/http/precompress.ts';
import { LANGUAGES } from './src/i18n/languages.ts';

/**
 * The islands every account settings page shows (only that page hydrates them) ship as one chunk
 * instead of one file each: compressed separately, the files repeat their imports and class names
 * (decision 27). Only these modules: what they share with other pages stays in the shared chunks;
 * the islands a page shows only for some accounts (setting a first password, linked identities) and
 * what the islands import on first use keep their own chunks.
 */
const SETTINGS_ISLANDS =
  /[\\/]src[\\/]components[\\/]account[\\/](ProfileForm|ChangePasswordForm|ChangeEmailForm|TwoFactorSettings|PasskeySettings|SessionList|DeleteAccountForm|password-failure)\.tsx?$/;

/**
 * @simplewebauthn/browser does not declare itself free of side effects, so the browser build kept all
 * of it (registration too) wherever one ceremony was imported. Its modules only define functions and
 * one abort service: declared side-effect free, each page gets what its ceremony uses (decision 27).
 */
const SIMPLEWEBAUTHN_BROWSER = /[\\/]@simplewebauthn[\\/]browser[\\/]esm[\\/]/;

/**
 * How the browser build splits code (client environment only).
 * @returns {import('vite').Plugin}
 */
function clientChunks() {
  return {
    name: 'client-chunks',
    applyToEnvironment: (environment) => environment.name === 'client',
    // The group below moves island modules out of their entry files, which Rolldown allows only when an
    // entry may export more than its module did; Astro imports just an island's default export.
    options: (options) => ({ ...options, preserveEntrySignatures: 'allow-extension' }),
    transform: {
      filter: { id: SIMPLEWEBAUTHN_BROWSER },
      handler: (code) => ({ code, map: null, moduleSideEffects: false }),
    },
    outputOptions: (output) => ({
      ...output,
      codeSplitting: {
        groups: [{ name: 'account-settings', test: SETTINGS_ISLANDS, includeDependenciesRecursively: false }],
      },
    }),
  };
}

export default defineConfig({
  output: 'static',
  // Middleware: the handler renders and nothing else. The shop's server serves the build's files from
  // memory (functions/http/static-files.ts); standalone's handler also looked each request up on disk
  // first (two file-system calls and an error object for every page and API request).
  adapter: node({ mode: 'middleware' }),
  integrations: [
    react(),
    {
      // Brotli and gzip variants of the static files, made once here so a start never spends time on them.
      name: 'precompress',
      hooks: {
        'astro:build:done': async ({ dir, logger }) => {
          logger.info(`Pre-compressed ${await precompressFolder(fileURLToPath(dir))} files.`);
        },
      },
    },
  ],
  trailingSlash: 'ignore',
  // Shiki colours code with inline styles, which the Content-Security-Policy blocks; Prism uses classes.
  markdown: { syntaxHighlight: 'prism' },
  i18n: {
    locales: [...LANGUAGES],
    defaultLocale: 'en',
    // Our middleware owns the language redirect (cookie, then Accept-Language, then en).
    routing: 'manual',
  },
  session: false,
  security: {
    // One cross-site check, the shop's own (src/lib/cross-site.ts, in the middleware): it covers every
    // content type and knows the public origin behind a TLS-terminating proxy, where Astro's compares
    // the browser's https Origin with the internal http URL and refuses admin uploads.
    checkOrigin: false,
    // Astro hashes the scripts and styles it emits; the HTTP layer (functions/http/security-headers.ts)
    // sends the policy as a header on every response and adds frame-ancestors, which a <meta> cannot carry.
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' https: data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-src 'self' https://www.youtube-nocookie.com https://player.vimeo.com",
      ],
    },
  },
  vite: {
    plugins: [tailwindcss(), clientChunks()],
    ssr: { external: ['pg'] },
  },
  server: { host: process.env.HOST ?? 'localhost', port: Number(process.env.PORT ?? 4321) },
});
