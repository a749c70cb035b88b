import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Every route of the shop, read from src/pages, so a new page or endpoint is covered by the
 * route-walking tests (security headers, authorization matrix) the moment it exists.
 */
export type Access = 'public' | 'user' | 'admin';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  /** The file's route pattern, e.g. `/[lang]/admin/courses`. */
  pattern: string;
  kind: 'page' | 'endpoint';
  /** Its file, relative to src/pages. */
  file: string;
  methods: Method[];
  access: Access;
}

const PAGES_DIR = path.resolve('src/pages');
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function listRoutes(): Route[] {
  return walk(PAGES_DIR).flatMap((file) => {
    const relative = path.relative(PAGES_DIR, file).split(path.sep).join('/');
    const match = relative.match(/^(.*)\.(astro|ts)$/);
    if (!match || relative.endsWith('.test.ts')) return [];
    const pattern = `/${match[1]!.replace(/(^|\/)index$/, '')}`.replace(/\/$/, '') || '/';
    if (pattern === '/404' || pattern === '/500') return [];
    const kind = match[2] === 'astro' ? 'page' : 'endpoint';
    const source = readFileSync(file, 'utf8');
    const methods = kind === 'page' ? (['GET'] as Method[]) : exportedMethods(source);
    return [{ pattern, kind, file: relative, methods, access: accessOf(pattern) }];
  });
}

/** A route method that reads a request body, and the content type its reader expects. */
export interface BodyRoute {
  pattern: string;
  method: Method;
  contentType: string;
}

// Every reader takes the request first (`readJson(request, …)`, `readCourseForm(context.request)`):
// all of them are built on readBody (src/lib/http.ts), the one way a body is read.
const READER_CALL = /\b(read\w*)\(\s*(?:\w+\.)?request\b/;
const HANDLER_EXPORT = /export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE|ALL)\b/g;

/** Every route method that reads a body, found by the reader its handler calls. */
export function listBodyRoutes(): BodyRoute[] {
  return listRoutes().flatMap((route) => {
    const source = readFileSync(path.join(PAGES_DIR, route.file), 'utf8');
    // A page reads a posted form in its frontmatter; an endpoint in the handler of each method.
    const handlers: [string, string][] =
      route.kind === 'page'
        ? [['POST', source]]
        : [...source.matchAll(HANDLER_EXPORT)].map((match, index, all) => [
            match[1] === 'ALL' ? 'POST' : match[1]!,
            source.slice(match.index, all[index + 1]?.index),
          ]);
    return handlers.flatMap(([method, code]) => {
      const reader = READER_CALL.exec(code)?.[1];
      return reader ? [{ pattern: route.pattern, method: method as Method, contentType: contentTypeFor(reader) }] : [];
    });
  });
}

function contentTypeFor(reader: string): string {
  if (/Multipart|CourseForm/.test(reader)) return 'multipart/form-data; boundary=oversized';
  if (/Form/.test(reader)) return 'application/x-www-form-urlencoded';
  return 'application/json';
}

/** Who may use a route, by its place in the tree (the middleware enforces the same rule). */
export function accessOf(pattern: string): Access {
  if (/^\/\[lang\]\/admin(\/|$)|^\/api\/admin(\/|$)/.test(pattern)) return 'admin';
  if (/^\/\[lang\]\/dashboard(\/|$)|^\/api\/account(\/|$)/.test(pattern)) return 'user';
  return 'public';
}

/** A concrete URL for a pattern, with harmless sample values for its parameters. */
export function sampleUrl(pattern: string, samples: Record<string, string>, lang = 'en'): string {
  return pattern
    .replace('[lang]', lang)
    .replace(/\[\.\.\.(\w+)\]/g, (_, name: string) => samples[name] ?? 'sample')
    .replace(/\[(\w+)\]/g, (_, name: string) => samples[name] ?? 'sample');
}

function exportedMethods(source: string): Method[] {
  if (/export const ALL\b/.test(source)) return ['GET', 'POST'];
  return METHODS.filter((method) => new RegExp(`export (const|async function|function) ${method}\\b`).test(source));
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}
