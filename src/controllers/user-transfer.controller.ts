import { once } from 'node:events';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Request, RequestHandler } from 'express';
import type { Container } from '../container';
import { AppError } from '../http/app-error';
import { adminAudit } from '../http/request-context';
import { IMPORT_LIMIT_BYTES, IMPORT_MESSAGES, type ImportMode } from '../services/user-transfer/user-import';

const IMPORT_TYPES = ['application/x-ndjson', 'application/json'];

/** The compressions a JSON body may come in elsewhere (body-parser's), for the import too: a large file compresses well. */
const DECODERS: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: zlib.createGunzip,
  'x-gzip': zlib.createGunzip,
  deflate: zlib.createInflate,
  br: zlib.createBrotliDecompress,
};

/**
 * The import body as sent, decompressed as it is read (the 50 MB limit counts what comes out, so a small bomb is
 * still cut off). A stream that fails to decompress ends the reading with an error the handler answers as a 400.
 */
function decodedBody(req: Request): Readable {
  const encoding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity') return req;
  const decoder = DECODERS[encoding];
  if (!decoder) throw new AppError(415, `Unsupported content encoding "${encoding.slice(0, 40)}"`);
  return pipeline(req, decoder(), () => undefined);
}

/** Whether an error is zlib's refusal of the data (not ours, not the database's). */
const isDecodeError = (err: unknown): boolean => typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('Z_');

/** Handlers of CONTRACT 17's import and export; the query schema has parsed `mode`. */
export function createUserTransferController({ userImport, userExport, logger }: Container) {
  const importUsers: RequestHandler = async (req, res) => {
    const type = req.is(IMPORT_TYPES);
    if (!type) throw new AppError(415, `Content-Type must be one of ${IMPORT_TYPES.join(', ')}`);
    // A declared length over the limit is refused before a byte is read (one without is counted as it arrives).
    if (Number(req.get('content-length') ?? 0) > IMPORT_LIMIT_BYTES) {
      res.set('Connection', 'close');
      throw new AppError(413, IMPORT_MESSAGES.tooLarge);
    }
    const { mode } = req.query as unknown as { mode: ImportMode };
    const body = decodedBody(req);
    try {
      res.json(await userImport.importUsers(body, { format: type === 'application/json' ? 'json-array' : 'ndjson', mode }, adminAudit(req)));
    } catch (err) {
      // Records read before the damage were written in their batches; the answer says the body was broken.
      if (isDecodeError(err)) throw AppError.badRequest('The body could not be decompressed');
      throw err;
    }
  };

  const exportUsers: RequestHandler = async (req, res) => {
    res.type('application/x-ndjson').set('Content-Disposition', 'attachment; filename="users.ndjson"');
    try {
      for await (const lines of userExport.exportUsers(adminAudit(req))) {
        // The client's pace sets the export's: the next page is read once this one is on its way.
        if (!res.write(lines)) await once(res, 'drain');
      }
      res.end();
    } catch (err) {
      if (!res.headersSent) throw err;
      // Half an export must not look whole: the connection is cut without the final chunk.
      logger.error({ err: (err as Error).message }, 'a user export failed mid-stream');
      res.destroy();
    }
  };

  return { importUsers, exportUsers };
}
