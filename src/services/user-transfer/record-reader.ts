import { StringDecoder } from 'node:string_decoder';

/** One record of an import as read: its parsed JSON, or why it could not be read, with the line it starts on. */
export type ReadRecord = { line: number; value: unknown } | { line: number; error: string };

export type RecordFormat = 'ndjson' | 'json-array';

export const RECORD_MESSAGES = {
  tooLarge: (characters: number) => `record longer than ${characters} characters`,
  badJson: 'not valid JSON',
  notArray: 'a JSON body must be an array of records',
  afterArray: 'unexpected text after the array',
  unterminated: 'the array is not closed',
} as const;

/** The body grew past `limit` bytes while being read (a body without Content-Length): the caller answers 413. */
export class BodyTooLarge extends Error {}

const WHITESPACE = new Set([' ', '\t', '\r', '\n', '\ufeff']);

/**
 * Reads an import body as records, one at a time, without holding more than one record's text: NDJSON (a record
 * per line, blank lines skipped) or a JSON array (each top-level element a record, found by tracking strings and
 * nesting, then parsed alone). A record longer than `maxRecordLength` characters or one that is not JSON is an
 * error at its line and reading goes on; the body past `limitBytes` stops it with BodyTooLarge. The stream is read as the caller pulls
 * (`for await`), so a slow database holds the upload back instead of buffering it.
 */
export async function* readRecords(
  body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  options: { format: RecordFormat; limitBytes: number; maxRecordLength: number },
): AsyncGenerator<ReadRecord> {
  const { format, limitBytes, maxRecordLength } = options;
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  let line = 1;
  /** The current record's text, its first line, and whether it outgrew maxRecordLength (then only its end is looked for). */
  let text = '';
  let startLine = 0;
  let overflow = false;
  // JSON array state: before '[', inside, after ']'; nesting depth and string state of the current element.
  let arrayState: 'before' | 'inside' | 'after' = 'before';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let refusedBody = false;

  function finish(): ReadRecord | null {
    const record = text.trim();
    const at = startLine;
    const over = overflow;
    text = '';
    startLine = 0;
    overflow = false;
    if (over) return { line: at, error: RECORD_MESSAGES.tooLarge(maxRecordLength) };
    if (record === '') return null;
    try {
      return { line: at, value: JSON.parse(record) };
    } catch {
      return { line: at, error: RECORD_MESSAGES.badJson };
    }
  }

  function append(piece: string): void {
    if (overflow) return;
    if (startLine === 0) startLine = line;
    if (text.length + piece.length > maxRecordLength) {
      overflow = true;
      text = '';
      return;
    }
    text += piece;
  }

  /** NDJSON: a chunk's complete lines become records; the rest waits for the next chunk. */
  function* ndjson(chunk: string): Generator<ReadRecord> {
    let from = 0;
    for (let at = chunk.indexOf('\n'); at >= 0; at = chunk.indexOf('\n', from)) {
      append(chunk.slice(from, at));
      const record = finish();
      if (record) yield record;
      line += 1;
      from = at + 1;
    }
    if (from < chunk.length) append(chunk.slice(from));
  }

  /** A JSON array: scans character by character, slicing each element's text out of the chunk. */
  function* jsonArray(chunk: string): Generator<ReadRecord> {
    let elementFrom = arrayState === 'inside' ? 0 : -1;
    for (let at = 0; at < chunk.length; at += 1) {
      const char = chunk[at];
      if (arrayState === 'before') {
        if (WHITESPACE.has(char)) {
          if (char === '\n') line += 1;
          continue;
        }
        if (char !== '[') {
          refusedBody = true;
          yield { line, error: RECORD_MESSAGES.notArray };
          return;
        }
        arrayState = 'inside';
        elementFrom = at + 1;
        continue;
      }
      if (arrayState === 'after') {
        if (char === '\n') line += 1;
        else if (!WHITESPACE.has(char)) {
          refusedBody = true;
          yield { line, error: RECORD_MESSAGES.afterArray };
          return;
        }
        continue;
      }
      if (char === '\n') {
        // Text before the newline belongs to the element; its first line is where its first non-space is.
        append(chunk.slice(elementFrom, at + 1));
        elementFrom = at + 1;
        line += 1;
        if (text.trim() === '' && !overflow) {
          text = '';
          startLine = 0;
        }
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === '"') inString = false;
        continue;
      }
      if (char === '"') inString = true;
      else if (char === '{' || char === '[') depth += 1;
      else if (char === '}' || char === ']') {
        if (depth > 0) depth -= 1;
        else {
          append(chunk.slice(elementFrom, at));
          const record = finish();
          if (record) yield record;
          arrayState = 'after';
          continue;
        }
      } else if (char === ',' && depth === 0) {
        append(chunk.slice(elementFrom, at));
        const record = finish() ?? { line, error: RECORD_MESSAGES.badJson };
        yield record;
        elementFrom = at + 1;
      }
    }
    if (arrayState === 'inside' && elementFrom >= 0 && elementFrom < chunk.length) append(chunk.slice(elementFrom));
  }

  for await (const piece of body) {
    const buffer = typeof piece === 'string' ? Buffer.from(piece) : piece;
    bytes += buffer.length;
    if (bytes > limitBytes) throw new BodyTooLarge();
    const chunk = decoder.write(buffer);
    yield* format === 'ndjson' ? ndjson(chunk) : jsonArray(chunk);
    if (refusedBody) return;
  }
  const rest = decoder.end();
  if (format === 'ndjson') {
    yield* ndjson(rest);
    const last = finish();
    if (last) yield last;
    return;
  }
  yield* jsonArray(rest);
  if (refusedBody) return;
  if (arrayState === 'before') yield { line, error: RECORD_MESSAGES.notArray };
  else if (arrayState === 'inside') yield { line: startLine || line, error: RECORD_MESSAGES.unterminated };
}
