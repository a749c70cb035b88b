import { constants, createReadStream } from 'node:fs';
import { appendFile, copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertSafeKey, isSafeKey, type StorageAdapter, type Visibility } from './adapter.ts';
import { PUBLIC_MEDIA_PREFIX } from '../../src/lib/course-links.ts';

/**
 * The chunk a new stream reads in: a share of a budget split among the streams open at once. A download
 * alone reads 256 KB a step (a 20 MB course's body took 85–240 ms in 16 KB steps, about a third less
 * in large ones, measured inside a first stamped download), a crowd 16 KB each, so memory stays flat:
 * a hundred opened at once read about 2.6 MB a step together (1.6 MB at 16 KB each).
 */
const STREAM_BUDGET_BYTES = 512 * 1024;
const MIN_CHUNK_BYTES = 16 * 1024;
const MAX_CHUNK_BYTES = 256 * 1024;
let openStreams = 0;

function streamChunkBytes(open: number): number {
  const share = 2 ** Math.floor(Math.log2(STREAM_BUDGET_BYTES / (open + 1)));
  return Math.min(MAX_CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, share));
}

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
      await writeThenRename(fileFor(visibility, key), (temporary) => writeFile(temporary, data));
    },
    async putCopyWithTail(visibility, key, sourceKey, tail) {
      const source = fileFor(visibility, sourceKey);
      await writeThenRename(fileFor(visibility, key), async (temporary) => {
        // The kernel copies (a clone where the file system can): no byte of the source enters Node.
        await copyFile(source, temporary, constants.COPYFILE_FICLONE);
        await appendFile(temporary, tail);
      });
    },
    async get(visibility, key) {
      if (!isSafeKey(key)) return undefined;
      const file = fileFor(visibility, key);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      return {
        key,
        size: info.size,
        stream: (range) => {
          const stream = createReadStream(file, { highWaterMark: streamChunkBytes(openStreams), ...range });
          openStreams++;
          stream.once('close', () => openStreams--);
          return stream;
        },
        // One read, not a stream of small chunks: 20 MB in 16 KB chunks took 90–160 ms, whole about 10.
        read: () => readFile(file),
      };
    },
    async delete(visibility, key) {
      await rm(fileFor(visibility, key), { force: true });
    },
    async list(visibility, prefix) {
      const folder = fileFor(visibility, prefix);
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
      const listed = [];
      for (const entry of entries) {
        // A write in flight (put's temporary file) is not a stored file yet.
        if (!entry.isFile() || !isSafeKey(entry.name) || entry.name.endsWith('.tmp')) continue;
        const info = await stat(path.join(folder, entry.name)).catch(() => undefined);
        if (info) listed.push({ key: `${prefix}/${entry.name}`, modifiedAt: info.mtime });
      }
      return listed;
    },
    publicUrl(key) {
      return `${PUBLIC_MEDIA_PREFIX}${key}`;
    },
  };
}

/** Writes a file through a temporary one renamed into place, so a reader never sees half a file. */
async function writeThenRename(file: string, write: (temporary: string) => Promise<void>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await write(temporary);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await rename(temporary, file);
}
