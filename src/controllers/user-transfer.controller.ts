import { once } from 'node:events';
import type { RequestHandler, Response } from 'express';
import type { Container } from '../container';
import { AppError } from '../http/app-error';
import { adminAudit } from '../http/request-context';
import { spoolBody } from '../http/spooled-body';
import { IMPORT_LIMIT_BYTES, IMPORT_MESSAGES, type ImportMode } from '../services/user-transfer/user-import';

const IMPORT_TYPES = ['application/x-ndjson', 'application/json'];

/** Resolves when the response takes more or its client is gone, leaving no listener behind (an export waits often). */
async function drainedOrGone(res: Response): Promise<void> {
  const settled = new AbortController();
  const event = (name: string) => once(res, name, { signal: settled.signal }).catch(() => undefined);
  await Promise.race([event('drain'), event('close')]);
  settled.abort();
}

/** Handlers of CONTRACT 17's import and export; the query schema has parsed `mode`. */
export function createUserTransferController({ userImport, userExport, logger }: Container) {
  const importUsers: RequestHandler = async (req, res) => {
    const type = req.is(IMPORT_TYPES);
    if (!type) throw new AppError(415, `Content-Type must be one of ${IMPORT_TYPES.join(', ')}`);
    // A declared length over the limit is refused before a byte is read (one without is counted as it arrives).
    if (Number(req.get('content-length') ?? 0) > IMPORT_LIMIT_BYTES) throw new AppError(413, IMPORT_MESSAGES.tooLarge, { headers: { Connection: 'close' } });
    const { mode } = req.query as unknown as { mode: ImportMode };
    // The whole upload first, to a file: an import of many users takes longer than the server lets a request take to
    // arrive, and a body over the limit is refused before anything is written.
    const body = await spoolBody(req, { limitBytes: IMPORT_LIMIT_BYTES, tooLarge: IMPORT_MESSAGES.tooLarge });
    try {
      res.json(await userImport.importUsers(body.open(), { format: type === 'application/json' ? 'json-array' : 'ndjson', mode }, adminAudit(req)));
    } finally {
      await body.remove();
    }
  };

  const exportUsers: RequestHandler = async (req, res) => {
    res.type('application/x-ndjson').set('Content-Disposition', 'attachment; filename="users.ndjson"');
    try {
      for await (const lines of userExport.exportUsers(adminAudit(req))) {
        // The client's pace sets the export's: the next page is read once this one is on its way. A client that
        // goes away ends it (no drain would ever come), and leaving the loop closes the export's cursor.
        if (!res.write(lines)) await drainedOrGone(res);
        if (res.destroyed) return;
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
