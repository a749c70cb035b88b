import { deflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFContext, PDFRawStream } from '@cantoo/pdf-lib';

/**
 * pdf-lib expands object and cross-reference streams while it loads a file, into ArrayBuffers that a
 * worker's resourceLimits do not count: a flate bomb there (each Flate layer inflates about 1,000
 * times) is gigabytes of memory and seconds of work per layer. Every decoder pdf-lib has (Flate, LZW,
 * ASCII85, run length, decryption) grows its output through one method, DecodeStream.ensureBuffer;
 * in the PDF worker (only there) it counts what it hands out and stops past a bound. pdf-lib keeps
 * loading past an object that fails, so the overrun is remembered for the job to ask about.
 */
let decodedBytes = 0;
let maxDecodedBytes = 0;
let overrun = false;

/** Starts counting afresh for the next job, within `bytes`. */
export function startDecodeBudget(bytes: number): void {
  decodedBytes = 0;
  maxDecodedBytes = bytes;
  overrun = false;
}

export function installDecodeBudget(): void {
  const probe = decodePDFRawStream(
    PDFRawStream.of(PDFContext.create().obj({ Filter: 'FlateDecode' }), deflateSync(new Uint8Array())),
  );
  const decodeStream = Object.getPrototypeOf(Object.getPrototypeOf(probe)) as {
    ensureBuffer?: (this: object, requested: number) => Uint8Array;
  };
  const grow = decodeStream.ensureBuffer;
  // A pdf-lib that decodes another way would silently lift the bound: fail loudly instead (tests catch it).
  if (!Object.hasOwn(decodeStream, 'ensureBuffer') || typeof grow !== 'function')
    throw new Error('pdf-lib no longer decodes through DecodeStream.ensureBuffer: the decode budget cannot be installed');
  // What each stream has asked for so far: the sum over streams is what the worker has decoded.
  const asked = new WeakMap<object, number>();
  decodeStream.ensureBuffer = function (requested) {
    const before = asked.get(this) ?? 0;
    if (requested > before) {
      asked.set(this, requested);
      decodedBytes += requested - before;
      if (decodedBytes > maxDecodedBytes) {
        overrun = true;
        throw new RangeError(`Decoded PDF streams exceed ${maxDecodedBytes} bytes`);
      }
    }
    return grow.call(this, requested);
  };
}

/** Whether anything this job decoded went past the budget (once past, past until the next job). */
export function decodeBudgetOverrun(): boolean {
  return overrun;
}
