import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertSafeKey, isSafeKey, type StorageAdapter, type Visibility } from './adapter.ts';
import { PUBLIC_MEDIA_PREFIX } from '../../src/lib/course-links.ts';

// Small chunks keep memory flat when many large files stream at once.
const STREAM_CHUNK_BYTES = 16 * 1024;

export { PUBLIC_MEDIA_PREFIX };

/** Files under `<root>/public/…` and `<root>/private/…`; public ones are served by the /media/ route. */
export function createLocalDiskStorage(root: () => string): StorageAdapter {
  const fileFor = (visibility: Visibility, key: string) => {
    assertSafeKey(key);
    return path.join(root(), visibility, ...key.split('/'));
  };
  return {
    kind: 'local',
    async put(visibility, key, data) {
      const file = fileFor(visibility, key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(temporary, data);
      await rename(temporary, file);
    },
    async get(visibility, key) {
      if (!isSafeKey(key)) return undefined;
      const file = fileFor(visibility, key);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      return { size: info.size, stream: () => createReadStream(file, { highWaterMark: STREAM_CHUNK_BYTES }) };
    },
    async delete(visibility, key) {
      await rm(fileFor(visibility, key), { force: true });
    },
    publicUrl(key) {
      return `${PUBLIC_MEDIA_PREFIX}${key}`;
    },
  };
}
