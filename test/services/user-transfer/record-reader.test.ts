import assert from 'node:assert/strict';
import { readRecords, RECORD_MESSAGES, BodyTooLarge, type ReadRecord, type RecordFormat } from '../../../src/services/user-transfer/record-reader';

/** Reads `chunks` (split where a test says, to cross chunk boundaries) and collects every record. */
async function read(chunks: Array<string | Buffer>, format: RecordFormat, limits: { limitBytes?: number; maxRecordLength?: number } = {}): Promise<ReadRecord[]> {
  const records: ReadRecord[] = [];
  for await (const record of readRecords((async function* () { yield* chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)); })(), { format, limitBytes: limits.limitBytes ?? 1e6, maxRecordLength: limits.maxRecordLength ?? 1000 })) {
    records.push(record);
  }
  return records;
}

describe('import record reader', () => {
  it('when NDJSON arrives split mid-line and mid-character, then each line is one record with its line number, blank lines skipped', async () => {
    const text = Buffer.from('{"email":"a@x.test"}\n\n{"name":"Zoë"}\r\nnot json\n{"last":true}');
    const cut = text.indexOf('ë') + 1; // inside the two bytes of ë
    const records = await read([text.subarray(0, 5), text.subarray(5, cut), text.subarray(cut)], 'ndjson');
    assert.deepEqual(records, [
      { line: 1, value: { email: 'a@x.test' } },
      { line: 3, value: { name: 'Zoë' } },
      { line: 4, error: RECORD_MESSAGES.badJson },
      { line: 5, value: { last: true } },
    ]);
  });

  it('when a JSON array holds strings with brackets, commas and escaped quotes, then each element is one record at the line it starts on', async () => {
    const body = '[\n {"a": "x, ] } [", "b": "say \\"hi\\""},\n {"n": [1, {"m": 2}]}, 7,\n  {bad}\n]\n';
    const records = await read(body.match(/[\s\S]{1,4}/g) as string[], 'json-array');
    assert.deepEqual(records, [
      { line: 2, value: { a: 'x, ] } [', b: 'say "hi"' } },
      { line: 3, value: { n: [1, { m: 2 }] } },
      { line: 3, value: 7 },
      { line: 4, error: RECORD_MESSAGES.badJson },
    ]);
  });

  it('when a record is over the record limit, then it alone is refused and reading goes on', async () => {
    const records = await read([`{"a":"${'x'.repeat(2000)}"}\n{"b":1}\n`], 'ndjson');
    assert.deepEqual(records, [{ line: 1, error: RECORD_MESSAGES.tooLarge(1000) }, { line: 2, value: { b: 1 } }]);
  });

  it('when the array is not an array, not closed or followed by text, then that is said once', async () => {
    assert.deepEqual(await read(['{"a":1}'], 'json-array'), [{ line: 1, error: RECORD_MESSAGES.notArray }]);
    assert.deepEqual(await read(['[{"a":1},\n{"b":'], 'json-array'), [{ line: 1, value: { a: 1 } }, { line: 2, error: RECORD_MESSAGES.unterminated }]);
    assert.deepEqual(await read(['[]\nx'], 'json-array'), [{ line: 2, error: RECORD_MESSAGES.afterArray }]);
    assert.deepEqual(await read([''], 'json-array'), [{ line: 1, error: RECORD_MESSAGES.notArray }]);
  });

  it('when the body passes the byte limit, then reading stops with BodyTooLarge', async () => {
    await assert.rejects(read(['{"a":1}\n', ' '.repeat(100)], 'ndjson', { limitBytes: 50 }), BodyTooLarge);
  });
});
