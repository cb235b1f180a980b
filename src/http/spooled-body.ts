import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Request } from 'express';
import { AppError } from './app-error';

/** The compressions body-parser reads elsewhere, read here too: a large upload compresses well. */
const DECODERS: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: zlib.createGunzip,
  'x-gzip': zlib.createGunzip,
  deflate: zlib.createInflate,
  br: zlib.createBrotliDecompress,
};

export const SPOOL_MESSAGES = {
  undecodable: 'The body could not be decompressed',
  aborted: 'The upload ended before its body did',
} as const;

/** A request body kept in a temporary file of its own (mode 0600): read it with `open()`, then `remove()` it. */
export interface SpooledBody {
  bytes: number;
  open(): Readable;
  remove(): Promise<void>;
}

class TooLarge extends Error {}

/** Whether an error is zlib's refusal of the data. */
const isDecodeError = (err: unknown): boolean => typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('Z_');

/**
 * Streams a request body (decompressed as it arrives) into a temporary file, holding no more than a chunk in memory,
 * and refuses it once it passes `limitBytes` (413, `tooLarge`), before the handler has done anything with it. For
 * uploads whose processing takes longer than the server lets a request take to arrive (its requestTimeout): the
 * upload completes at the network's pace, and the work runs from the file while the client waits for the answer.
 */
export async function spoolBody(req: Request, options: { limitBytes: number; tooLarge: string }): Promise<SpooledBody> {
  const encoding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  const decoder = encoding === 'identity' ? null : DECODERS[encoding];
  if (decoder === undefined) throw new AppError(415, `Unsupported content encoding "${encoding.slice(0, 40)}"`);
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'upload-'));
  const file = path.join(dir, 'body');
  const remove = () => fs.promises.rm(dir, { recursive: true, force: true });
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > options.limitBytes ? new TooLarge() : null, chunk);
    },
  });
  try {
    await pipeline([req, ...(decoder ? [decoder()] : []), counter, fs.createWriteStream(file, { mode: 0o600 })]);
  } catch (err) {
    await remove();
    if (err instanceof TooLarge) throw new AppError(413, options.tooLarge, { headers: { Connection: 'close' } });
    if (isDecodeError(err)) throw AppError.badRequest(SPOOL_MESSAGES.undecodable);
    if (req.destroyed || (err as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') throw AppError.badRequest(SPOOL_MESSAGES.aborted);
    throw err;
  }
  return { bytes, open: () => fs.createReadStream(file), remove };
}
