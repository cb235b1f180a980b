import type { Role } from '../../models';
import { containsNul } from '../../http/body-parsing';
import { readRecords, type ReadRecord, type RecordFormat } from './record-reader';

/** One user as an import carries it (CONTRACT 17), after the record schema (src/schemas/user-transfer.schemas.ts). */
export interface ImportRecord {
  email: string;
  username?: string;
  role?: Role;
  active?: boolean;
  emailVerified?: boolean;
  firstName?: string | null;
  lastName?: string | null;
  profile?: Record<string, unknown>;
  createdAt?: string;
  password?: string;
  passwordHash?: string;
}

/** A record checked by the schema: the record, or its field errors as one line of text. */
export type CheckedRecord = { ok: true; record: ImportRecord } | { ok: false; error: string };

/** A record refused before any write: its line, its email when it has one, and why. */
export interface Refusal {
  line: number;
  email: string | null;
  error: string;
}

/** The records of one batch that passed the checks, and those refused while it was read (all of lines before the next batch). */
export interface CheckedBatch {
  records: Array<{ line: number; record: ImportRecord }>;
  refused: Refusal[];
}

/** One record is one user: far below this. A longer one is refused alone, so a runaway line cannot fill memory. */
const MAX_RECORD_LENGTH = 64 * 1024;
/**
 * Records per transaction: few enough that a batch holds the write lock briefly (SQLite has one writer; a sign-in
 * waits for it), many enough that its one read and one INSERT amortise the round trips and the commit.
 */
export const IMPORT_BATCH_SIZE = 1000;
/** Profile data a batch may hold (characters of JSON): a full batch of the largest records would otherwise hold 64 MB. */
const BATCH_PROFILE_CHARACTERS = 4 * 1024 * 1024;

export const NUL_REFUSAL = 'the record contains a NUL character';

const emailOf = (value: unknown): string | null => {
  const email = (value as { email?: unknown } | null)?.email;
  return typeof email === 'string' ? email.slice(0, 320) : null;
};

/**
 * An import body as batches of checked records: each record read (record-reader.ts), refused with its line when
 * it cannot be read, holds a NUL or fails `checkRecord`, and otherwise gathered into a batch of at most
 * IMPORT_BATCH_SIZE records (fewer when their profiles are large). Read as the caller pulls, one record's text
 * at a time; a last batch holds the rest, also when it holds only refusals.
 */
export async function* checkedBatches(
  body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  options: { format: RecordFormat; limitBytes: number; checkRecord: (value: unknown) => Promise<CheckedRecord> },
): AsyncGenerator<CheckedBatch> {
  let batch: CheckedBatch = { records: [], refused: [] };
  let profileCharacters = 0;
  for await (const read of readRecords(body, { format: options.format, limitBytes: options.limitBytes, maxRecordLength: MAX_RECORD_LENGTH }) as AsyncIterable<ReadRecord>) {
    if ('error' in read) {
      batch.refused.push({ line: read.line, email: null, error: read.error });
      continue;
    }
    // The body parser's rule, for the body it leaves to this stream: no field may hold U+0000 (SQLite cuts text at it).
    const checked = containsNul(read.value) ? { ok: false as const, error: NUL_REFUSAL } : await options.checkRecord(read.value);
    if (!checked.ok) batch.refused.push({ line: read.line, email: emailOf(read.value), error: checked.error });
    else {
      batch.records.push({ line: read.line, record: checked.record });
      if (checked.record.profile) profileCharacters += JSON.stringify(checked.record.profile).length;
    }
    if (batch.records.length >= IMPORT_BATCH_SIZE || profileCharacters >= BATCH_PROFILE_CHARACTERS) {
      yield batch;
      batch = { records: [], refused: [] };
      profileCharacters = 0;
    }
  }
  if (batch.records.length > 0 || batch.refused.length > 0) yield batch;
}
